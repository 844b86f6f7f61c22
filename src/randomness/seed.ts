import { createHash } from 'node:crypto';

export const SYSTEM_ENTROPY_BYTES = 32;

/**
 * Seed of one request's keystream: SHA-256(source bytes ‖ system entropy ‖ UTF-8 base id). The
 * system entropy keeps the seed unpredictable when the source bytes are a public beacon value;
 * the base id makes two requests that share a beacon value and (by a fault) entropy still differ.
 */
export function deriveRequestSeed(
  sourceBytes: Uint8Array,
  systemEntropy: Uint8Array,
  baseId: string,
): Uint8Array {
  if (systemEntropy.length !== SYSTEM_ENTROPY_BYTES) {
    throw new RangeError(`system entropy must be ${SYSTEM_ENTROPY_BYTES} bytes, got ${systemEntropy.length}`);
  }
  if (baseId.length === 0) throw new RangeError('base id must not be empty');
  const digest = createHash('sha256')
    .update(sourceBytes)
    .update(systemEntropy)
    .update(baseId, 'utf8')
    .digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}
