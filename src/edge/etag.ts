import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** A strong entity tag for a body: its SHA-256, base64url. */
export function etagOf(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/** Whether an If-None-Match header names this entity tag (weak or strong, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * Answers that never change once made (log entries and proofs, entrant proofs, certificates)
 * are marked `immutable` by their routes; each gets an ETag, and a client that already holds
 * it gets 304 without the body. Other answers are left alone, so the API pays nothing for this.
 */
export function tagImmutableAnswers(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || reply.hasHeader('etag')) return payload;
    if (!String(reply.getHeader('cache-control') ?? '').includes('immutable')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = etagOf(payload);
    reply.header('etag', etag);
    if (!matchesEtag(request.headers['if-none-match'], etag)) return payload;
    reply.code(304);
    return '';
  });
}
