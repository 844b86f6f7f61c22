import { randomBytes, randomUUIDv7 } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { Cascade } from './cascade.ts';
import { createChaChaStream } from './chacha-stream.ts';
import type { OperationRepository, OperationRow } from './operation.repository.ts';
import type { Material } from './pool.ts';
import { choose, intInRange, shuffle } from './sampling.ts';
import { deriveOperationSeed, SYSTEM_ENTROPY_BYTES } from './seed.ts';

/**
 * Private-source bytes one operation consumes. The seed also takes 256 bits of system entropy,
 * so 128 quantum bits per operation add upstream randomness without draining a 1 KiB ANU batch
 * (about one a minute keyless) in a handful of requests: one batch serves 64 operations.
 */
export const PRIVATE_BYTES_PER_OPERATION = 16;
export const MAX_INT_WIDTH = 1_000_000_000;

/** Who asked, for the operations log. */
export interface OperationContext {
  accountId: string;
  keyId: string;
  xRequestId: string;
  endpoint: string;
}

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
}

export function createRandomService({ cascade, operations, clock, budgetMs }: Deps) {
  /** Material for `count` operations from the cascade; 503 when nothing serves within the budget. */
  async function operate(count: number, bytes = PRIVATE_BYTES_PER_OPERATION): Promise<Operation[]> {
    const materials = await cascade.acquire(count, bytes, budgetMs);
    const createdAt = clock.now();
    // One call to the CSPRNG for the whole request rather than one per operation.
    const entropy = new Uint8Array(randomBytes(SYSTEM_ENTROPY_BYTES * materials.length));
    return materials.map((material, i) => ({
      // Time-ordered ids append to the operations index instead of landing at random pages.
      requestId: randomUUIDv7(),
      material,
      systemEntropy: entropy.subarray(i * SYSTEM_ENTROPY_BYTES, (i + 1) * SYSTEM_ENTROPY_BYTES),
      createdAt,
    }));
  }

  /** `chunkSize`: keystream computed per refill; an integer needs one 64-byte block. */
  function streamOf(op: Operation, chunkSize?: number) {
    return createChaChaStream(deriveOperationSeed(op.material.bytes, op.systemEntropy, op.requestId), {
      chunkSize,
    });
  }

  function rows(ctx: OperationContext, ops: Operation[]): OperationRow[] {
    return ops.map((op) => ({
      request_id: op.requestId,
      x_request_id: ctx.xRequestId,
      account_id: ctx.accountId,
      key_id: ctx.keyId,
      endpoint: ctx.endpoint,
      source: op.material.source,
      source_reference: op.material.reference,
      source_fetched_at: op.material.fetchedAt.getTime(),
      created_at: op.createdAt.getTime(),
    }));
  }

  async function record(ctx: OperationContext, ops: Operation[]) {
    await operations.insertMany(rows(ctx, ops));
  }

  /** The response names the last operation, as the contract says for multi-operation requests. */
  function lastOf(ops: Operation[]) {
    const last = ops[ops.length - 1];
    return { qrng_source: last.material.source, request_id: last.requestId };
  }

  return {
    operate,
    rows,

    async int(ctx: OperationContext, query: { min: number; max: number; count: number }) {
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
      const ops = await operate(count);
      const numbers = ops.map((op) => intInRange(streamOf(op, 64), min, max));
      await record(ctx, ops);
      return {
        numbers,
        count,
        range: { min, max },
        ...lastOf(ops),
        qrng_request_ids: ops.map((op) => op.requestId),
      };
    },

    async choice(ctx: OperationContext, body: { items: unknown[]; count: number; unique: boolean }) {
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
      const ops = await operate(1);
      const chosen = choose(streamOf(ops[0]), items, count, unique);
      await record(ctx, ops);
      return { chosen, count, from_total: items.length, ...lastOf(ops) };
    },

    async shuffle(ctx: OperationContext, body: { items: unknown[] }) {
      const ops = await operate(1);
      const shuffled = shuffle(streamOf(ops[0]), body.items);
      await record(ctx, ops);
      return { shuffled, count: shuffled.length, ...lastOf(ops) };
    },

    /**
     * Bytes are the operation's keystream XOR fresh CSPRNG bytes: whatever the upstream
     * delivered, the output is never weaker than the operating system's entropy.
     */
    async bytes(ctx: OperationContext, query: { n: number; format: 'hex' | 'base64' }) {
      const ops = await operate(1);
      const out = Buffer.from(streamOf(ops[0]).read(query.n));
      const system = randomBytes(query.n);
      for (let i = 0; i < out.length; i++) out[i] ^= system[i];
      await record(ctx, ops);
      return {
        bytes: out.toString(query.format),
        format: query.format,
        length: query.n,
        ...lastOf(ops),
        pool: 'crypto' as const,
      };
    },

    async findOperation(requestId: string) {
      return operations.find(requestId);
    },
  };
}

export type RandomService = ReturnType<typeof createRandomService>;
