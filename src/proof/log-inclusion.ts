// Inclusion of one entry in the log at a checkpoint (RFC 9162 §2.1.3), with the problem named
// for the report. Shared by the log checks and the witness checks.

import type { Checkpoint } from './checkpoint.ts';
import type { Sha256 } from './digest.ts';
import { fromHex } from './hex.ts';
import { leafHash, verifyInclusion } from './merkle.ts';

/** A proof as published (hex strings), as hashes; null when it is not a list of hex hashes. */
export const hashes = (proof: unknown): Uint8Array[] | null => {
  if (!Array.isArray(proof)) return null;
  try {
    return proof.map((h) => fromHex(String(h)));
  } catch {
    return null;
  }
};

/** Why `leafData` is not entry `index` of the log at `at`, or null. */
export function inclusionProblem(
  leafData: Uint8Array,
  index: unknown,
  proof: unknown,
  at: Checkpoint,
  sha256: Sha256,
): string | null {
  if (index === null || index === undefined) return 'no log index is published for it';
  if (!Number.isSafeInteger(index) || (index as number) < 0)
    return `log index ${String(index)} is not an entry`;
  const i = index as number;
  if (i >= at.size) return `entry ${i} is beyond the checkpoint's size ${at.size}`;
  const path = hashes(proof);
  if (!path) return `the inclusion proof of entry ${i} is not a list of hashes`;
  return verifyInclusion(leafHash(leafData, sha256), i, at.size, path, at.root, sha256)
    ? null
    : `entry ${i} is not this object in the log of size ${at.size}`;
}
