import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PUBLIC_READ } from '../../edge/public-cors.ts';
import type { LogService } from '../../log/log.service.ts';
import { MAX_ENTRIES_PER_READ } from '../../log/transparency-log.ts';
import { toBase64, toHex } from '../../proof/hex.ts';
import type { LogEntryKind } from '../../proof/log-entry.ts';
import { AppError, type ErrorCode } from '../../shared/errors.ts';
import { errorResponses, NOT_MODIFIED } from '../schemas.ts';
import {
  CheckpointSchema,
  ConsistencyQuerySchema,
  ConsistencySchema,
  EntriesQuerySchema,
  EntriesSchema,
  InclusionQuerySchema,
  InclusionSchema,
} from './log.schemas.ts';

// Entries and proofs for a fixed size never change once the log has that size.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const PUBLIC_ERRORS: ErrorCode[] = ['rate_limited', 'internal_error', 'service_unavailable'];
const errors = errorResponses([...PUBLIC_ERRORS, 'invalid_parameter', 'missing_parameter', 'invalid_type']);
const proofResponses = { 304: NOT_MODIFIED, ...errors };

/** A range the log does not have yet, or a reversed one: the caller's to fix. */
async function inRange<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RangeError) throw new AppError('invalid_parameter', error.message);
    throw error;
  }
}

/** CONTRACT §8: the transparency log's public read side. */
export const logRoutes: FastifyPluginAsyncTypebox<{ log: LogService }> = async (app, { log }) => {
  app.get(
    '/log/checkpoint',
    {
      config: PUBLIC_READ,
      schema: {
        tags: ['log'],
        operationId: 'getLogCheckpoint',
        summary: "The log's newest checkpoint: a C2SP signed note with witnesses' cosignatures",
        description:
          "No key. `text/plain`: origin, tree size, base64 root hash, a blank line, then the log's signature and any timestamped cosignatures (c2sp.org/tlog-checkpoint, tlog-cosignature).",
        response: {
          200: {
            description: 'The checkpoint (never cached: it changes with every entry)',
            content: { 'text/plain': { schema: CheckpointSchema } },
          },
          ...errorResponses(PUBLIC_ERRORS),
        },
      },
    },
    async (_request, reply) => {
      const { note } = await log.checkpoint();
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(note);
    },
  );

  app.get(
    '/log/entries',
    {
      config: PUBLIC_READ,
      schema: {
        tags: ['log'],
        operationId: 'listLogEntries',
        summary: `Log entries [start, end), at most ${MAX_ENTRIES_PER_READ} a call`,
        querystring: EntriesQuerySchema,
        response: { 200: EntriesSchema, ...proofResponses },
      },
    },
    async (request, reply) => {
      const { start, end } = request.query;
      const rows = await inRange(() => log.log.entries(start, end));
      reply.header('cache-control', IMMUTABLE);
      return {
        entries: rows.map((e) => ({
          index: e.index,
          kind: e.kind as LogEntryKind,
          id: e.id,
          leaf_data: toBase64(e.leafData),
        })),
      };
    },
  );

  app.get(
    '/log/proof/inclusion',
    {
      config: PUBLIC_READ,
      schema: {
        tags: ['log'],
        operationId: 'getLogInclusionProof',
        summary: 'RFC 9162 inclusion proof of entry `index` in the tree of `size` entries',
        querystring: InclusionQuerySchema,
        response: { 200: InclusionSchema, ...proofResponses },
      },
    },
    async (request, reply) => {
      const { index, size } = request.query;
      const proof = await inRange(() => log.log.inclusionProof(index, size));
      reply.header('cache-control', IMMUTABLE);
      return { index, size, proof: proof.map(toHex) };
    },
  );

  app.get(
    '/log/proof/consistency',
    {
      config: PUBLIC_READ,
      schema: {
        tags: ['log'],
        operationId: 'getLogConsistencyProof',
        summary: 'RFC 9162 consistency proof between the trees of `first` and `second` entries',
        querystring: ConsistencyQuerySchema,
        response: { 200: ConsistencySchema, ...proofResponses },
      },
    },
    async (request, reply) => {
      const { first, second } = request.query;
      const proof = await inRange(() => log.log.consistencyProof(first, second));
      reply.header('cache-control', IMMUTABLE);
      return { first, second, proof: proof.map(toHex) };
    },
  );
};
