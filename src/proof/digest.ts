// The hash the proof core is given rather than imports: node:crypto on the server, in tyche verify
// and in tyche-verify.mjs (fast); @noble/hashes in the pages' bundled scripts.

/** Synchronous SHA-256. */
export type Sha256 = (data: Uint8Array) => Uint8Array;

/** SHA-256 of the concatenation of `parts`, checked to be 32 bytes (a wrong hash function fails loudly). */
export function digestOf(sha256: Sha256, ...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const data = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    data.set(part, at);
    at += part.length;
  }
  const digest = sha256(data);
  if (digest.length !== 32) throw new TypeError('sha256 must return 32 bytes');
  return digest;
}
