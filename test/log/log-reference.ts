// What the stored log is checked against: RFC 9162 §2.1.1 MTH and §2.1.4.1 PROOF written as the
// RFC writes them (recursion over the full list of leaf hashes), an independent SHA-256, and
// published vectors.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fromHex } from '../../src/proof/hex.ts';

export const sha256 = (data: Uint8Array): Uint8Array =>
  new Uint8Array(createHash('sha256').update(data).digest());

export const leafOf = (data: Uint8Array): Uint8Array => sha256(Buffer.concat([Buffer.from([0]), data]));
const nodeOf = (left: Uint8Array, right: Uint8Array): Uint8Array =>
  sha256(Buffer.concat([Buffer.from([1]), left, right]));

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) over leaf hashes. */
export function mth(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(new Uint8Array(0));
  if (leaves.length === 1) return leaves[0];
  const k = split(leaves.length);
  return nodeOf(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

function subproof(m: number, leaves: readonly Uint8Array[], whole: boolean): Uint8Array[] {
  const n = leaves.length;
  if (m === n) return whole ? [] : [mth(leaves)];
  const k = split(n);
  if (m <= k) return [...subproof(m, leaves.slice(0, k), whole), mth(leaves.slice(k))];
  return [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

/** PROOF(m, D[n]) for 0 < m ≤ n. */
export function referenceConsistency(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  return subproof(m, leaves, true);
}

export function pack(hashes: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * 32);
  hashes.forEach((h, i) => {
    out.set(h, i * 32);
  });
  return out;
}

/** A small seeded generator, so a failing sample can be replayed. */
export function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * below);
  };
}

interface Rfc9162Fixture {
  leaves: string[];
  roots: string[];
  inclusion: { index: number; size: number; proof: string[] }[];
}

/** transparency-dev/merkle's eight-leaf tree (sources in the fixture). */
export const rfc9162 = JSON.parse(
  readFileSync(new URL('../fixtures/rfc9162-merkle-vectors.json', import.meta.url), 'utf8'),
) as Rfc9162Fixture;

/**
 * Consistency proofs of the same tree, from transparency-dev/merkle proof/verify_test.go
 * (commit 02194e9afb6c1d95b5381350007963aa70fff472), `consistencyProofs`.
 */
export const rfc9162Consistency: { first: number; second: number; proof: Uint8Array[] }[] = [
  { first: 1, second: 1, proof: [] },
  {
    first: 1,
    second: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ].map(fromHex),
  },
  {
    first: 6,
    second: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ].map(fromHex),
  },
  {
    first: 2,
    second: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ].map(fromHex),
  },
  {
    first: 6,
    second: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ].map(fromHex),
  },
];
