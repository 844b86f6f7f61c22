// Enough of the Unicode Bidirectional Algorithm (UAX #9) to lay out a line of mixed Latin and
// Arabic or Hebrew in reading order: strong letters, numbers, and neutrals that take the
// direction around them. No explicit embeddings, no mirrored brackets.

/** L strong left-to-right, R strong right-to-left, EN a number, N anything else. */
export type BidiClass = 'L' | 'R' | 'EN' | 'N';

const RTL = /^[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

export function bidiClass(cluster: string): BidiClass {
  if (/^\p{Nd}/u.test(cluster)) return 'EN';
  if (/^\p{L}/u.test(cluster)) return RTL.test(cluster) ? 'R' : 'L';
  return 'N';
}

/**
 * Resolved embedding levels (even: left to right) and the visual order of the indices, for a
 * line whose paragraph direction is `base` (0 left to right, 1 right to left).
 */
export function visualOrder(
  classes: readonly BidiClass[],
  base: 0 | 1,
): { order: number[]; levels: number[] } {
  const sos = base === 1 ? 'R' : 'L';
  // W2/W7: a number after right-to-left text is an Arabic-context number; after L it is L.
  let strong: 'L' | 'R' = sos;
  const types = classes.map((c) => {
    if (c === 'L' || c === 'R') strong = c;
    if (c !== 'EN') return c;
    return strong === 'L' ? 'L' : 'AN';
  });
  // N1/N2: neutrals between two equal directions take it (numbers count as R), else the base.
  const weak = [...types];
  const direction = (t: string | undefined) =>
    t === 'L' ? 'L' : t === undefined || t === 'N' ? undefined : 'R';
  for (let i = 0; i < types.length; i++) {
    if (types[i] !== 'N') continue;
    let j = i;
    while (j < types.length && types[j] === 'N') j++;
    const before = direction(weak.slice(0, i).findLast((t) => t !== 'N')) ?? sos;
    const after = direction(weak[j]) ?? sos;
    const resolved = before === after ? before : sos;
    for (let k = i; k < j; k++) types[k] = resolved;
    i = j - 1;
  }
  // I1/I2.
  const levels = types.map((t) => {
    if (base === 0) return t === 'L' ? 0 : t === 'R' ? 1 : 2;
    return t === 'R' ? 1 : 2;
  });
  // L2: from the highest level down to the lowest odd one, reverse every run at or above it.
  const order = levels.map((_, i) => i);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((l) => l % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    let i = 0;
    while (i < order.length) {
      if (levels[order[i]] < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && levels[order[j]] >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  return { order, levels };
}
