import { createHash } from 'node:crypto';
import { nodeHash } from '../../src/proof/merkle.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

export function pack(hashes: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * 32);
  for (const [i, h] of hashes.entries()) out.set(h, i * 32);
  return out;
}

export const at = (packed: Uint8Array, i: number) => packed.subarray(i * 32, i * 32 + 32);

/**
 * RFC 9162 word for word, recursive and memoized over one set of packed leaf hashes: §2.1.1 MTH
 * (split at the largest power of two below n), §2.1.3.1 PATH and §2.1.4.1 SUBPROOF. The tests
 * compare the bottom-up and store-backed code with this.
 */
export function referenceMerkle(leaves: Uint8Array) {
  const memo = new Map<string, Uint8Array>();
  const split = (size: number) => 2 ** Math.floor(Math.log2(size - 1));
  const mth = (lo: number, hi: number): Uint8Array => {
    if (hi - lo === 1) return at(leaves, lo);
    const key = `${lo}:${hi}`;
    let h = memo.get(key);
    if (!h) {
      const k = split(hi - lo);
      h = nodeHash(mth(lo, lo + k), mth(lo + k, hi), sha256);
      memo.set(key, h);
    }
    return h;
  };
  const path = (m: number, lo: number, hi: number): Uint8Array[] => {
    if (hi - lo === 1) return [];
    const k = split(hi - lo);
    return m < k ? [...path(m, lo, lo + k), mth(lo + k, hi)] : [...path(m - k, lo + k, hi), mth(lo, lo + k)];
  };
  const subproof = (m: number, lo: number, hi: number, b: boolean): Uint8Array[] => {
    if (m === hi - lo) return b ? [] : [mth(lo, hi)];
    const k = split(hi - lo);
    return m <= k
      ? [...subproof(m, lo, lo + k, b), mth(lo + k, hi)]
      : [...subproof(m - k, lo + k, hi, false), mth(lo, lo + k)];
  };
  return {
    mth,
    path: (index: number, n: number) => path(index, 0, n),
    consistency: (m: number, n: number) => subproof(m, 0, n, true),
  };
}
