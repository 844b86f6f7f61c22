// CONTRACT §5 steps 5–7, shared by tyche-draw-v1 and tyche-draw-v2: the SHA-256 counter stream of
// a seed, the 64-bit rejection sampler over it, and the partial Fisher–Yates that picks indices.

import type { Sha256 } from './digest.ts';
import { partialFisherYates, type Uniform } from './sampling.ts';

const TWO_POW_64 = 1n << 64n;

/** SHA-256(seed ‖ uint64_be(0)) ‖ SHA-256(seed ‖ uint64_be(1)) ‖ …, read as 8-byte big-endian words. */
function createWordReader(seed: Uint8Array, sha256: Sha256): () => bigint {
  const input = new Uint8Array(seed.length + 8);
  input.set(seed, 0);
  const counter = new DataView(input.buffer, seed.length, 8);
  let block = 0;
  let bytes: Uint8Array = new Uint8Array(0);
  let at = 0;
  return () => {
    if (at === bytes.length) {
      counter.setUint32(0, Math.floor(block / 2 ** 32));
      counter.setUint32(4, block >>> 0);
      bytes = sha256(input);
      if (bytes.length !== 32) throw new TypeError('sha256 must return 32 bytes');
      block++;
      at = 0;
    }
    const hi = ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
    const lo = ((bytes[at + 4] << 24) | (bytes[at + 5] << 16) | (bytes[at + 6] << 8) | bytes[at + 7]) >>> 0;
    at += 8;
    return (BigInt(hi) << 32n) | BigInt(lo);
  };
}

/**
 * §5 step 6: take the next word x, accept when x < 2^64 − (2^64 mod m) and return x mod m, else
 * read on. Ranges are safe integers, far below 2^64, so a rejection is vanishingly rare.
 */
export function createDrawUniform(seed: Uint8Array, sha256: Sha256): Uniform {
  if (seed.length !== 32) throw new RangeError('seed must be 32 bytes');
  const nextWord = createWordReader(seed, sha256);
  return (m) => {
    if (!Number.isSafeInteger(m) || m < 1)
      throw new RangeError(`range must be a positive safe integer, got ${m}`);
    const mm = BigInt(m);
    const limit = TWO_POW_64 - (TWO_POW_64 % mm);
    for (;;) {
      const x = nextWord();
      if (x < limit) return Number(x % mm);
    }
  };
}

/** §5 steps 5–7: the indices a[0 … k−1] drawn from `seed` out of n, in draw order. */
export function pickIndices(seed: Uint8Array, n: number, k: number, sha256: Sha256): number[] {
  return partialFisherYates(createDrawUniform(seed, sha256), n, k);
}
