import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { LogService } from '../../log/log.service.ts';
import { MAX_ENTRIES_PER_READ } from '../../log/transparency-log.ts';
import { toBase64, toHex } from '../../proof/hex.ts';
import { PUBLIC_READ } from '../public-cors.ts';
import { errorResponses } from '../schemas.ts';

// Entries and proofs for a fixed size never change once the log has that size.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const Count = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
const HexList = Type.Array(Type.String({ description: '32-byte hash, lower-case hex' }));
const errors = errorResponses(['invalid_parameter', 'missing_parameter', 'internal_error']);

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
        summary: "The log's newest checkpoint: a C2SP signed note with witnesses' cosignatures",
        description:
          "No key. `text/plain`: origin, tree size, base64 root hash, a blank line, then the log's signature and any timestamped cosignatures (c2sp.org/tlog-checkpoint, tlog-cosignature).",
        response: { 200: Type.String(), ...errors },
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
        summary: `Log entries [start, end), at most ${MAX_ENTRIES_PER_READ} a call`,
        querystring: Type.Object({ start: Count('first index'), end: Count('index after the last') }),
        response: {
          200: Type.Object({
            entries: Type.Array(
              Type.Object({
                index: Type.Integer(),
                kind: Type.Union([Type.Literal('seal'), Type.Literal('certificate'), Type.Literal('key')]),
                id: Type.String(),
                leaf_data: Type.String({ description: 'base64 of the RFC 8785 bytes of the signed object' }),
              }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { start, end } = request.query;
      const rows = await inRange(() => log.log.entries(start, end));
      reply.header('cache-control', IMMUTABLE);
      return {
        entries: rows.map((e) => ({
          index: e.index,
          kind: e.kind as 'seal' | 'certificate' | 'key',
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
        summary: 'RFC 9162 inclusion proof of entry `index` in the tree of `size` entries',
        querystring: Type.Object({ index: Count('the entry'), size: Count('the tree size, above index') }),
        response: {
          200: Type.Object({ index: Type.Integer(), size: Type.Integer(), proof: HexList }),
          ...errors,
        },
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
        summary: 'RFC 9162 consistency proof between the trees of `first` and `second` entries',
        querystring: Type.Object({ first: Count('the older size'), second: Count('the newer size') }),
        response: {
          200: Type.Object({ first: Type.Integer(), second: Type.Integer(), proof: HexList }),
          ...errors,
        },
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
