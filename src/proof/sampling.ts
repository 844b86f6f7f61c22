// The one normative copy of uniform sampling and (partial) Fisher–Yates: the v1 and v2 draws and
// the random endpoints all run this code, so a fix or a vector applies to every one of them.

/** Draws an integer uniformly from [0, m). */
export type Uniform = (m: number) => number;

/**
 * The rejection core, generic over the word width so that a test can enumerate every word of a
 * small width. Words are uniform over [0, 2^wordBits); the largest multiple of m that fits is
 * accepted and reduced mod m, so every outcome is hit by exactly floor(2^wordBits / m) words.
 * All arithmetic stays exact in doubles because every quantity is an integer ≤ 2^53.
 */
export function uniformFromWords(m: number, nextWord: () => number, wordBits: number): number {
  if (!Number.isInteger(wordBits) || wordBits < 1 || wordBits > 53) {
    throw new RangeError('word width must be 1..53 bits');
  }
  const space = 2 ** wordBits;
  if (!Number.isInteger(m) || m < 1 || m > space) {
    throw new RangeError(`range must be an integer in 1..2^${wordBits}, got ${m}`);
  }
  const limit = space - (space % m);
  for (;;) {
    const x = nextWord();
    if (x < limit) return x % m;
  }
}

/**
 * CONTRACT §5 step 7: a = [0 … n−1]; for i = 0 … k−1: j = i + uniform(n − i), swap a[i] and a[j],
 * out[i] = a[i]. The array is a sparse swap map (the untouched tail is implicit), so memory is
 * O(k) whatever n is; every ordered selection of k distinct positions is equally likely.
 */
export function partialFisherYates(uniform: Uniform, n: number, k: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError('n must be a non-negative safe integer');
  if (!Number.isSafeInteger(k) || k < 0 || k > n) throw new RangeError('k must be an integer in 0..n');
  const swapped = new Map<number, number>();
  const out = new Array<number>(k);
  for (let i = 0; i < k; i++) {
    const j = i + uniform(n - i);
    const atJ = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(i) ?? i);
    swapped.delete(i);
    out[i] = atJ;
  }
  return out;
}

/** Fisher–Yates from the end: every permutation equally likely when `uniform` is exact. Returns a new array. */
export function shuffleWith<T>(uniform: Uniform, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniform(i + 1);
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}
