import { gzipSync } from 'node:zlib';
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { etagOf, matchesEtag } from '../../edge/etag.ts';
import { PUBLIC_READ } from '../../edge/public-cors.ts';
import type { LogService } from '../../log/log.service.ts';
import { type TileRead, UnbundledEntryError } from '../../log/tile-reader.ts';
import { MAX_ENTRIES_PER_READ } from '../../log/transparency-log.ts';
import { toBase64, toHex } from '../../proof/hex.ts';
import type { LogEntryKind } from '../../proof/log-entry.ts';
import { parseTilePath, TILE_WIDTH } from '../../proof/tiles.ts';
import { AppError, type ErrorCode } from '../../shared/errors.ts';
import { errorResponses, NOT_MODIFIED } from '../schemas.ts';
import {
  BundleParamsSchema,
  CheckpointSchema,
  ConsistencyQuerySchema,
  ConsistencySchema,
  DocumentedBundleParamsSchema,
  DocumentedTileParamsSchema,
  EntriesQuerySchema,
  EntriesSchema,
  InclusionQuerySchema,
  InclusionSchema,
  TileParamsSchema,
  TileSchema,
} from './log.schemas.ts';

// Entries and proofs for a fixed size never change once the log has that size.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const PUBLIC_ERRORS: ErrorCode[] = ['rate_limited', 'internal_error', 'service_unavailable'];
const errors = errorResponses([...PUBLIC_ERRORS, 'invalid_parameter', 'missing_parameter', 'invalid_type']);
const proofResponses = { 304: NOT_MODIFIED, ...errors };
// A partial tile never changes either, but the spec's clients look for the full one once it
// exists; CONTRACT §16 keeps partial tiles in caches for at most a minute.
const PARTIAL_TILE = 'public, max-age=60';
const tileResponses = {
  200: {
    description: 'The tile: `application/octet-stream`',
    content: { 'application/octet-stream': { schema: TileSchema } },
  },
  304: NOT_MODIFIED,
  ...errorResponses([...PUBLIC_ERRORS, 'not_found']),
};

/** A range the log does not have yet, or a reversed one: the caller's to fix. */
async function inRange<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RangeError) throw new AppError('invalid_parameter', error.message);
    throw error;
  }
}

/**
 * OpenAPI has no wildcard parameter: the document names the tile routes' tail (N in groups, and
 * any `.p/W`) as one path parameter `tile`, which may hold slashes.
 */
function documentedAs(url: string, params: TSchema): { swaggerTransform: SwaggerTransform } {
  return { swaggerTransform: ({ schema }) => ({ url, schema: { ...schema, params } }) };
}

/** Whether Accept-Encoding admits gzip (named, without q=0). */
function acceptsGzip(request: FastifyRequest): boolean {
  return String(request.headers['accept-encoding'] ?? '')
    .split(',')
    .some((part) => {
      const [coding, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return coding === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
    });
}

/**
 * A hash tile or entry bundle of c2sp.org/tlog-tiles (CONTRACT §16) at `path` (`tile/…`), or a
 * 404 problem: a path the spec does not allow, a tile beyond the tree, or a bundle that holds an
 * entry too long for one (only a log written before long certificates were logged as digests).
 */
async function sendTile(log: LogService, path: string, request: FastifyRequest, reply: FastifyReply) {
  const name = parseTilePath(path);
  if (!name) {
    throw new AppError(
      'not_found',
      `${path} is not a tile: tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>], N in 3-digit groups (x001/x234/067), W 1–255`,
    );
  }
  let read: TileRead;
  try {
    read = await log.tiles.read(name);
  } catch (error) {
    if (error instanceof UnbundledEntryError) throw new AppError('not_found', error.message);
    throw error;
  }
  if (!read.bytes) throw new AppError('not_found', `The log has ${read.size} entries: ${path} is beyond it`);
  let body = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  // Tiles are for any monitor, one in a browser page too; the CORS hook opens only JSON.
  reply.type('application/octet-stream').header('access-control-allow-origin', '*');
  if (name.level === 'entries') {
    // The spec asks bundles to be compressed at the HTTP layer; JSON entries shrink several times.
    reply.header('vary', 'accept-encoding');
    if (acceptsGzip(request)) {
      body = gzipSync(body);
      reply.header('content-encoding', 'gzip');
    }
  }
  if (name.width === TILE_WIDTH) return reply.header('cache-control', IMMUTABLE).send(body);
  // The ETag hook tags immutable answers only; a partial tile is as fixed, so it is tagged here.
  const etag = etagOf(body);
  reply.header('cache-control', PARTIAL_TILE).header('etag', etag);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(body);
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

  app.get(
    '/log/tile/entries/*',
    {
      config: { ...PUBLIC_READ, ...documentedAs('/log/tile/entries/:tile', DocumentedBundleParamsSchema) },
      schema: {
        tags: ['log'],
        operationId: 'getLogEntryBundle',
        summary: 'An entry bundle (c2sp.org/tlog-tiles): 256 entries, or the first W with `.p/W`',
        description:
          'No key. `/log/tile/entries/<N>[.p/<W>]`, N in 3-digit groups (`x001/x234/067`): entries N·256 onwards, each as a 2-byte big-endian length and its `leaf_data`. Gzip when `Accept-Encoding` allows. A full bundle is immutable; a partial one (the first W, 1–255, as the log had them at a size it had) is cached for at most 60 s. Beyond the log: 404.',
        params: BundleParamsSchema,
        response: tileResponses,
      },
    },
    async (request, reply) => sendTile(log, `tile/entries/${request.params['*']}`, request, reply),
  );

  app.get(
    '/log/tile/:level/*',
    {
      config: { ...PUBLIC_READ, ...documentedAs('/log/tile/:level/:tile', DocumentedTileParamsSchema) },
      schema: {
        tags: ['log'],
        operationId: 'getLogTile',
        summary: 'A hash tile of the log (c2sp.org/tlog-tiles): 256 hashes of tree level 8·L',
        description:
          'No key. `/log/tile/<L>/<N>[.p/<W>]`, N in 3-digit groups (`x001/x234/067`): the concatenated 32-byte hashes of tree level 8·L numbered N·256 onwards, each the Merkle Tree Hash of 256^L entries. A full tile (8192 bytes) is immutable; a partial one (`.p/W`, the first W hashes, for any size the log has had) is cached for at most 60 s. Beyond the tree: 404.',
        params: TileParamsSchema,
        response: tileResponses,
      },
    },
    async (request, reply) =>
      sendTile(log, `tile/${request.params.level}/${request.params['*']}`, request, reply),
  );
};
