// RFC 9162 §2.1.3.1 PATH and §2.1.4.1 PROOF over any source of subtree hashes: `rangeHash(start,
// end)` is MTH(D[start:end]) for the aligned ranges the recursions visit, so a stored tree
// answers with a handful of reads instead of rehashing its leaves.

export type RangeHash = (start: number, end: number) => Uint8Array;

/** The largest power of two strictly below n (n ≥ 2), without 32-bit shifts. */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** PATH(index, D[size]), leaf to root. The caller checks 0 ≤ index < size. */
export function inclusionProofFrom(index: number, size: number, rangeHash: RangeHash): Uint8Array[] {
  const topDown: Uint8Array[] = [];
  let start = 0;
  let end = size;
  while (end - start > 1) {
    const k = splitOf(end - start);
    if (index < start + k) {
      topDown.push(rangeHash(start + k, end));
      end = start + k;
    } else {
      topDown.push(rangeHash(start, start + k));
      start += k;
    }
  }
  return topDown.reverse();
}

/**
 * PROOF(first, D[second]) = SUBPROOF(first, D[second], true). The caller checks
 * 0 ≤ first ≤ second; a tree is consistent with itself and with the empty tree without a proof.
 */
export function consistencyProofFrom(first: number, second: number, rangeHash: RangeHash): Uint8Array[] {
  if (first === 0 || first === second) return [];
  const topDown: Uint8Array[] = [];
  let start = 0;
  let end = second;
  let m = first;
  let whole = true;
  for (;;) {
    const n = end - start;
    if (m === n) {
      if (!whole) topDown.push(rangeHash(start, end));
      break;
    }
    const k = splitOf(n);
    if (m <= k) {
      topDown.push(rangeHash(start + k, end));
      end = start + k;
    } else {
      topDown.push(rangeHash(start, start + k));
      start += k;
      m -= k;
      whole = false;
    }
  }
  return topDown.reverse();
}
