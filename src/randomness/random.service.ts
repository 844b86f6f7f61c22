import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Cascade } from './cascade.ts';
import { createChaChaStream } from './chacha-stream.ts';
import type { OperationRepository, OperationRow, Spend } from './operation.repository.ts';
import { newBaseId, operationIds } from './operation-ids.ts';
import type { Material } from './pool.ts';
import type { ResultSigning, Signed } from './result-signing.ts';
import { choose, intInRangeWith, shuffle, uniformFrom } from './sampling.ts';
import { deriveRequestSeed, SYSTEM_ENTROPY_BYTES } from './seed.ts';
import { systemBytes } from './system-entropy.ts';

/**
 * Private-source bytes one request consumes. The seed also takes 256 bits of system entropy,
 * so 128 quantum bits per request add upstream randomness without draining a 1 KiB ANU batch
 * (about one a minute keyless) in a handful of requests: one batch serves 64 requests.
 */
export const PRIVATE_BYTES_PER_OPERATION = 16;
export const MAX_INT_WIDTH = 1_000_000_000;
/** Keystream a shuffle or choice computes per refill: 1 024 words. */
const LIST_CHUNK = 4096;

/** Who asked, for the operations record. */
export interface OperationContext {
  accountId: string;
  keyId: string;
  xRequestId: string;
  endpoint: string;
  /**
   * The place this request holds in its key's daily allowance, given by the HTTP layer for the
   * random endpoints: it is spent in the commit of the record, and `counted` is told after it
   * with the key's requests today.
   */
  meter?: (Spend & { counted(requestsToday: number): void }) | undefined;
}

/**
 * One use of the cascade: one request's material, seed and keystream. `requestId` is its base
 * id, the first of the operation ids its values are numbered by.
 */
export interface Operation {
  requestId: string;
  material: Material;
  systemEntropy: Uint8Array;
  createdAt: Date;
}

interface Deps {
  cascade: Cascade;
  operations: OperationRepository;
  clock: Clock;
  budgetMs: number;
  /** Signs results asked for with `signed=true` (CONTRACT §12); without it they are refused. */
  signing?: ResultSigning | undefined;
}

export function createRandomService({ cascade, operations, clock, budgetMs, signing }: Deps) {
  /** Material for one request from the cascade; 503 when nothing serves within the budget. */
  async function acquire(bytes = PRIVATE_BYTES_PER_OPERATION, operations = 1): Promise<Operation> {
    const [material] = await cascade.acquire(1, bytes, budgetMs, operations);
    return {
      requestId: newBaseId(),
      material,
      systemEntropy: systemBytes(SYSTEM_ENTROPY_BYTES),
      createdAt: clock.now(),
    };
  }

  /** `chunkSize`: keystream computed per refill, sized to what the request will read. */
  function streamOf(op: Operation, chunkSize: number) {
    const seed = deriveRequestSeed(op.material.bytes, op.systemEntropy, op.requestId);
    return createChaChaStream(seed, { chunkSize });
  }

  /** The record of a request whose values are numbered 0 … count − 1 from its base id. */
  function row(ctx: OperationContext, op: Operation, count = 1) {
    return {
      request_id: op.requestId,
      x_request_id: ctx.xRequestId,
      account_id: ctx.accountId,
      key_id: ctx.keyId,
      endpoint: ctx.endpoint,
      source: op.material.source,
      source_reference: op.material.reference,
      source_fetched_at: op.material.fetchedAt.getTime(),
      created_at: op.createdAt.getTime(),
      operation_count: count,
    };
  }

  async function record(ctx: OperationContext, op: Operation, count = 1) {
    if (!ctx.meter) {
      await operations.insert(row(ctx, op, count));
      return;
    }
    ctx.meter.counted(await operations.insertCounted(row(ctx, op, count), ctx.meter));
  }

  /**
   * Records the request and answers `response`, signed when asked: the signed path counts,
   * records, numbers and keeps the result in one transaction of its own, while an unsigned
   * request takes exactly the path it always took.
   */
  async function answer<T extends Record<string, unknown>>(
    ctx: OperationContext,
    op: Operation,
    count: number,
    response: T,
    sign: boolean,
  ): Promise<T | Signed<T>> {
    if (!sign) {
      await record(ctx, op, count);
      return response;
    }
    if (!signing) throw new Error('signed results need a signing key (createRandomService without signing)');
    const { signed, requestsToday } = await signing.issue(row(ctx, op, count), ctx.meter, response);
    if (ctx.meter && requestsToday !== undefined) ctx.meter.counted(requestsToday);
    return signed;
  }

  return {
    /** Single-operation requests for the draws, which record theirs in their own transaction. */
    async operate(count: number, bytes = PRIVATE_BYTES_PER_OPERATION): Promise<Operation[]> {
      const ops: Operation[] = [];
      for (let i = 0; i < count; i++) ops.push(await acquire(bytes));
      return ops;
    },

    rows(ctx: OperationContext, ops: Operation[]): OperationRow[] {
      return ops.map((op) => row(ctx, op));
    },

    async int(ctx: OperationContext, query: { min: number; max: number; count: number }, sign = false) {
      const { min, max, count } = query;
      if (min >= max) {
        throw new AppError('invalid_parameter', 'min must be less than max', {
          errors: [{ parameter: 'min', message: `must be less than max (${max})` }],
        });
      }
      if (max - min > MAX_INT_WIDTH) {
        throw new AppError('invalid_parameter', `max − min must be at most ${MAX_INT_WIDTH}`, {
          errors: [{ parameter: 'max', message: `max − min is ${max - min}, above ${MAX_INT_WIDTH}` }],
        });
      }
      const op = await acquire(PRIVATE_BYTES_PER_OPERATION, count);
      // One 4-byte word per value and a block to spare for rejections, in one cipher call.
      const uniform = uniformFrom(streamOf(op, count * 4 + 64));
      const numbers = new Array<number>(count);
      for (let i = 0; i < count; i++) numbers[i] = intInRangeWith(uniform, min, max);
      const ids = operationIds(op.requestId, count);
      const response = {
        numbers,
        count,
        range: { min, max },
        qrng_source: op.material.source,
        request_id: ids[count - 1],
        qrng_request_ids: ids,
      };
      return answer(ctx, op, count, response, sign);
    },

    async choice(
      ctx: OperationContext,
      body: { items: unknown[]; count: number; unique: boolean },
      sign = false,
    ) {
      const { items, count, unique } = body;
      if (unique && count > items.length) {
        throw new AppError(
          'invalid_parameter',
          `count (${count}) exceeds the ${items.length} items of a unique choice`,
          {
            errors: [
              {
                parameter: 'count',
                message: `must be at most items.length (${items.length}) when unique is true`,
              },
            ],
          },
        );
      }
      const op = await acquire();
      const chosen = choose(streamOf(op, LIST_CHUNK), items, count, unique);
      const response = {
        chosen,
        count,
        from_total: items.length,
        qrng_source: op.material.source,
        request_id: op.requestId,
      };
      return answer(ctx, op, 1, response, sign);
    },

    async shuffle(ctx: OperationContext, body: { items: unknown[] }, sign = false) {
      const op = await acquire();
      const shuffled = shuffle(streamOf(op, LIST_CHUNK), body.items);
      const response = {
        shuffled,
        count: shuffled.length,
        qrng_source: op.material.source,
        request_id: op.requestId,
      };
      return answer(ctx, op, 1, response, sign);
    },

    /**
     * Bytes are the request's keystream XOR fresh CSPRNG bytes: whatever the upstream
     * delivered, the output is never weaker than the operating system's entropy.
     */
    async bytes(ctx: OperationContext, query: { n: number; format: 'hex' | 'base64' }, sign = false) {
      const op = await acquire();
      const keystream = streamOf(op, query.n).read(query.n);
      const system = systemBytes(query.n);
      const out = Buffer.allocUnsafe(query.n);
      for (let i = 0; i < out.length; i++) out[i] = keystream[i] ^ system[i];
      const response = {
        bytes: out.toString(query.format),
        format: query.format,
        length: query.n,
        qrng_source: op.material.source,
        request_id: op.requestId,
        pool: 'crypto' as const,
      };
      return answer(ctx, op, 1, response, sign);
    },

    /**
     * The record naming the operation `id`, with the operation's index in it and, for a signed
     * result still kept, the complete signed response.
     */
    async findOperation(id: string) {
      const found = await operations.find(id);
      if (!found) return undefined;
      const result = signing ? await signing.find(found.record.request_id) : undefined;
      return { ...found, result };
    },
  };
}

export type RandomService = ReturnType<typeof createRandomService>;
