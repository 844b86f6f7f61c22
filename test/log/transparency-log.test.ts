import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTransparencyLog, type TransparencyLog } from '../../src/log/transparency-log.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { inclusionProofFromLeaves, rootOfNodes, verifyInclusion } from '../../src/proof/merkle.ts';
import { verifyConsistency } from '../../src/proof/merkle-proofs.ts';
import type { Store } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';
import {
  leafOf,
  mth,
  pack,
  referenceConsistency,
  rfc9162,
  rfc9162Consistency,
  seeded,
  sha256,
} from './log-reference.ts';

const SIZE = 300;
const T = Date.parse('2026-01-01T00:00:00Z');

// The first eight entries are transparency-dev's reference leaves, so the published roots and
// proofs of sizes 1..8 are past states of this log; the rest vary in length.
const leafData = (i: number): Uint8Array =>
  i < rfc9162.leaves.length
    ? fromHex(rfc9162.leaves[i])
    : new TextEncoder().encode(JSON.stringify({ n: i, pad: 'x'.repeat(i % 37) }));

const hexes = (hashes: readonly Uint8Array[]) => hashes.map(toHex);

for (const target of await storeTargets()) {
  describe(`transparency log of ${SIZE} entries on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let log: TransparencyLog;
    let cleanup: (() => Promise<void>) | undefined;
    const leaves: Uint8Array[] = [];
    const appendedRoots: Uint8Array[] = [];
    const packed = () => pack(leaves);

    before(async () => {
      const opened = await target.open();
      ({ store, cleanup } = opened);
      log = createTransparencyLog({ db: store.db });
      for (let i = 0; i < SIZE; i++) {
        const data = leafData(i);
        const appended = await store.db
          .transaction()
          .execute((trx) =>
            log.append(trx, { kind: 'seal', id: `seal-${i}`, leafData: data, createdAt: T + i }),
          );
        assert.equal(appended.index, i);
        assert.equal(appended.size, i + 1);
        leaves.push(leafOf(data));
        appendedRoots.push(appended.root);
      }
    });
    after(() => cleanup?.());

    test('the root after each append is the MTH of every leaf so far, and stays readable for each past size', async () => {
      assert.equal(await log.size(), SIZE);
      assert.equal(toHex(await log.root(0)), toHex(sha256(new Uint8Array(0))));
      for (let n = 1; n <= SIZE; n++) {
        const expected = toHex(rootOfNodes(packed(), n, sha256));
        assert.equal(toHex(appendedRoots[n - 1]), expected, `root returned by append ${n - 1}`);
        assert.equal(toHex(await log.root(n)), expected, `root(${n})`);
      }
      assert.equal(toHex(await log.root(SIZE)), toHex(mth(leaves)), 'the recursive definition agrees');
      assert.deepEqual(await log.head(), { size: SIZE, root: await log.root(SIZE) });
    });

    test("transparency-dev's roots, inclusion and consistency proofs are this log's at sizes 1..8", async () => {
      for (let n = 1; n <= rfc9162.roots.length; n++)
        assert.equal(toHex(await log.root(n)), rfc9162.roots[n - 1]);
      for (const v of rfc9162.inclusion) {
        assert.deepEqual(
          hexes(await log.inclusionProof(v.index, v.size)),
          v.proof,
          `PATH(${v.index}, ${v.size})`,
        );
      }
      for (const v of rfc9162Consistency) {
        assert.deepEqual(
          hexes(await log.consistencyProof(v.first, v.second)),
          hexes(v.proof),
          `PROOF(${v.first}, ${v.second})`,
        );
      }
    });

    test('entries come back in order with their exact bytes, kind, id and time', async () => {
      const page = await log.entries(5, 17);
      assert.deepEqual(
        page.map((e) => e.index),
        Array.from({ length: 12 }, (_, i) => 5 + i),
      );
      for (const e of page) {
        assert.deepEqual(e, {
          index: e.index,
          kind: 'seal',
          id: `seal-${e.index}`,
          leafData: leafData(e.index),
          leafHash: leaves[e.index],
          createdAt: T + e.index,
        });
      }
      assert.equal((await log.entries(0, SIZE)).length, SIZE);
      assert.deepEqual(await log.entries(SIZE, SIZE), []);
      assert.deepEqual(await log.indicesOf('seal', 'seal-42'), [42]);
      assert.deepEqual(await log.indicesOf('certificate', 'seal-42'), []);
    });

    test('every inclusion proof of sizes 1..40, and 400 sampled over all sizes, verifies and is the RFC path', async () => {
      const pairs: [number, number][] = [];
      for (let n = 1; n <= 40; n++) for (let i = 0; i < n; i++) pairs.push([i, n]);
      const next = seeded(9162);
      for (let k = 0; k < 400; k++) {
        const n = 1 + next(SIZE);
        pairs.push([next(n), n]);
      }
      for (const [i, n] of pairs) {
        const proof = await log.inclusionProof(i, n);
        const root = rootOfNodes(packed(), n, sha256);
        assert.ok(verifyInclusion(leaves[i], i, n, proof, root, sha256), `PATH(${i}, ${n}) verifies`);
        assert.deepEqual(hexes(proof), hexes(inclusionProofFromLeaves(packed(), n, i, sha256)));
        if (proof.length > 0) {
          const flipped = proof.map((p) => new Uint8Array(p));
          flipped[next(flipped.length)][next(32)] ^= 1 << next(8);
          assert.ok(
            !verifyInclusion(leaves[i], i, n, flipped, root, sha256),
            `a flipped bit in PATH(${i}, ${n})`,
          );
        }
      }
    });

    test('every consistency proof between sizes up to 24, and 300 sampled pairs, verifies and is the RFC PROOF', async () => {
      const pairs: [number, number][] = [];
      for (let second = 1; second <= 24; second++)
        for (let first = 1; first <= second; first++) pairs.push([first, second]);
      const next = seeded(6962);
      for (let k = 0; k < 300; k++) {
        const second = 1 + next(SIZE);
        pairs.push([1 + next(second), second]);
      }
      const rootAt = (n: number) => rootOfNodes(packed(), n, sha256);
      for (const [first, second] of pairs) {
        const proof = await log.consistencyProof(first, second);
        assert.deepEqual(
          hexes(proof),
          hexes(referenceConsistency(first, leaves.slice(0, second))),
          `PROOF(${first}, ${second})`,
        );
        assert.ok(verifyConsistency(first, second, rootAt(first), rootAt(second), proof, sha256));
        if (proof.length > 0) {
          const flipped = proof.map((p) => new Uint8Array(p));
          flipped[next(flipped.length)][next(32)] ^= 1 << next(8);
          assert.ok(
            !verifyConsistency(first, second, rootAt(first), rootAt(second), flipped, sha256),
            `a flipped bit in PROOF(${first}, ${second})`,
          );
        }
      }
      const empty = sha256(new Uint8Array(0));
      const fromEmpty = await log.consistencyProof(0, SIZE);
      assert.deepEqual(fromEmpty, [], 'from the empty tree');
      assert.ok(verifyConsistency(0, SIZE, empty, rootAt(SIZE), fromEmpty, sha256));
      assert.deepEqual(await log.consistencyProof(0, 0), []);
    });

    test('bad ranges are RangeErrors that name the bound', async () => {
      const bad: [string, () => Promise<unknown>, RegExp][] = [
        ['root(-1)', () => log.root(-1), /size must be a non-negative integer/],
        ['root(1.5)', () => log.root(1.5), /size must be a non-negative integer/],
        ['root(size + 1)', () => log.root(SIZE + 1), /size 301 is beyond the log size 300/],
        ['entries(5, 4)', () => log.entries(5, 4), /end 4 is before start 5/],
        ['entries past the end', () => log.entries(0, SIZE + 1), /end 301 is beyond the log size 300/],
        ['entries(NaN, 1)', () => log.entries(Number.NaN, 1), /start must be a non-negative integer/],
        ['inclusion at size', () => log.inclusionProof(SIZE, SIZE), /index 300 is not below size 300/],
        ['inclusion in the empty tree', () => log.inclusionProof(0, 0), /index 0 is not below size 0/],
        ['inclusion past the log', () => log.inclusionProof(0, SIZE + 1), /size 301 is beyond the log size/],
        ['inclusion at -1', () => log.inclusionProof(-1, 3), /index must be a non-negative integer/],
        ['consistency backwards', () => log.consistencyProof(5, 4), /first 5 is after second 4/],
        [
          'consistency past the log',
          () => log.consistencyProof(1, SIZE + 1),
          /second 301 is beyond the log size/,
        ],
        ['consistency from 2.5', () => log.consistencyProof(2.5, 4), /first must be a non-negative integer/],
      ];
      for (const [name, call, message] of bad)
        await assert.rejects(call(), (e: Error) => e instanceof RangeError && message.test(e.message), name);
    });
  });
}
