import { createHash } from 'node:crypto';

export const SYSTEM_ENTROPY_BYTES = 32;

/**
 * Seed of one randomness operation: SHA-256(source bytes ‖ system entropy ‖ UTF-8 operation id).
 * The system entropy keeps the seed unpredictable when the source bytes are a public beacon value;
 * the operation id makes two operations that share a beacon value and (by a fault) entropy still differ.
 */
export function deriveOperationSeed(
  sourceBytes: Uint8Array,
  systemEntropy: Uint8Array,
  operationId: string,
): Uint8Array {
  if (systemEntropy.length !== SYSTEM_ENTROPY_BYTES) {
    throw new RangeError(`system entropy must be ${SYSTEM_ENTROPY_BYTES} bytes, got ${systemEntropy.length}`);
  }
  if (operationId.length === 0) throw new RangeError('operation id must not be empty');
  const digest = createHash('sha256')
    .update(sourceBytes)
    .update(systemEntropy)
    .update(operationId, 'utf8')
    .digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}
