// The receipt's Merkle path drawn as a small tree (browser only): from the entrant's leaf up to
// the entrants root, each level the node on the entrant's path beside its sibling from the proof,
// left and right as RFC 9162 §2.1.3.2 combines them. Each hash is shortened and opens in full.

import { concatBytes } from '@noble/hashes/utils.js';
import { fromHex, toHex } from '../proof/hex.ts';

export interface TreeLevel {
  /** The node on the entrant's path at this level (the leaf at level 0). */
  node: string;
  /** Its sibling, from the proof; undefined at the root. */
  sibling?: string;
  siblingLeft?: boolean;
}

/** Every level of the entrant's path, leaf first, root last (RFC 9162 §2.1.3.2's walk). */
export function pathLevels(
  leafHash: string,
  index: number,
  count: number,
  proof: readonly string[],
  sha256: (data: Uint8Array) => Uint8Array,
): TreeLevel[] {
  const node = (l: Uint8Array, r: Uint8Array) => sha256(concatBytes(Uint8Array.of(1), l, r));
  const levels: TreeLevel[] = [];
  let fn = index;
  let sn = count - 1;
  let r = fromHex(leafHash);
  for (const p of proof) {
    const sibling = fromHex(p);
    if (fn % 2 === 1 || fn === sn) {
      levels.push({ node: toHex(r), sibling: p, siblingLeft: true });
      r = node(sibling, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      levels.push({ node: toHex(r), sibling: p, siblingLeft: false });
      r = node(r, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  levels.push({ node: toHex(r) });
  return levels;
}

const short = (hash: string) => `${hash.slice(0, 8)}…${hash.slice(-4)}`;

function hashBox(hash: string, role: string, className: string): HTMLElement {
  const box = document.createElement('div');
  box.className = `node ${className}`;
  const label = document.createElement('span');
  label.className = 'role';
  label.textContent = role;
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = short(hash);
  const full = document.createElement('code');
  full.textContent = hash;
  details.append(summary, full);
  box.append(label, details);
  box.dataset.hash = hash;
  return box;
}

/** Draws the levels root first (as trees are drawn), into `list`. */
export function drawTree(
  list: HTMLElement,
  levels: readonly TreeLevel[],
  words: { you: string; sibling: string; computed: string; root: string },
): void {
  const items = levels.map((level, i) => {
    const li = document.createElement('li');
    li.dataset.level = String(i);
    if (level.sibling === undefined) {
      li.append(hashBox(level.node, words.root, 'root'));
      return li;
    }
    const mine = hashBox(level.node, i === 0 ? words.you : words.computed, 'path');
    const other = hashBox(level.sibling, words.sibling, 'sibling');
    li.append(...(level.siblingLeft ? [other, mine] : [mine, other]));
    return li;
  });
  list.replaceChildren(...items.reverse());
}
