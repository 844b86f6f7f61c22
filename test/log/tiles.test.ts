import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inclusionProofFromLeaves, leafHash, rootOfNodes } from '../../src/proof/merkle.ts';
import {
  consistencyProofFrom,
  consistencyProofFromLeaves,
  inclusionProofFrom,
} from '../../src/proof/merkle-proofs.ts';
import {
  encodeBundle,
  parseBundle,
  parseTilePath,
  servable,
  type TileRef,
  tileIndexPath,
  tilePath,
  tileWidth,
  treeBundles,
  treeTiles,
} from '../../src/proof/tiles.ts';
import {
  tileFromLevels,
  tileLevels,
  tileProblem,
  tileRangeHash,
  tilesNeeded,
} from '../../src/proof/tiles-tree.ts';
import { sha256 } from './log-reference.ts';

const hex = (list: Uint8Array[]) => list.map((h) => Buffer.from(h).toString('hex'));

function leaves(count: number): Uint8Array {
  const packed = new Uint8Array(count * 32);
  for (let i = 0; i < count; i++)
    packed.set(leafHash(new TextEncoder().encode(`entry ${i}`), sha256), i * 32);
  return packed;
}

describe('tile names (c2sp.org/tlog-tiles)', () => {
  test("N in 3-digit groups, the spec's example among them", () => {
    assert.equal(tileIndexPath(1234067), 'x001/x234/067');
    assert.equal(tileIndexPath(0), '000');
    assert.equal(tileIndexPath(999), '999');
    assert.equal(tileIndexPath(1000), 'x001/000');
    assert.equal(tilePath({ level: 0, index: 1234067, width: 256 }), 'tile/0/x001/x234/067');
    assert.equal(tilePath({ level: 2, index: 5, width: 17 }), 'tile/2/005.p/17');
    assert.equal(tilePath({ level: 'entries', index: 1234067, width: 8 }), 'tile/entries/x001/x234/067.p/8');
    assert.throws(() => tilePath({ level: 64, index: 0, width: 256 }), RangeError);
    assert.throws(() => tilePath({ level: 0, index: 0, width: 0 }), RangeError);
  });

  test('a path parses back to its tile; every other spelling is no tile', () => {
    for (const name of [
      { level: 0, index: 1234067, width: 256 },
      { level: 63, index: 0, width: 255 },
      { level: 'entries' as const, index: 1000, width: 1 },
      { level: 1, index: 2 ** 40, width: 3 },
    ]) {
      assert.deepEqual(parseTilePath(tilePath(name)), name);
    }
    for (const bad of [
      'tile/0/x000/001', // not the shortest spelling
      'tile/0/001/234', // a group without x before the last
      'tile/0/x1/234',
      'tile/00/000',
      'tile/64/000',
      'tile/-1/000',
      'tile/0/000.p/256',
      'tile/0/000.p/0',
      'tile/0/000.p/07',
      'tile/0/000.p/',
      'tile/0/000.p',
      'tile/0/1',
      'tile/0/',
      'tile/entry/000',
      'tiles/0/000',
      'tile/0/000/',
    ]) {
      assert.equal(parseTilePath(bad), null, bad);
    }
  });
});

describe('which tiles a tree has', () => {
  test("the spec's tree of 70 000 and its tree of 256", () => {
    const tiles = treeTiles(70_000);
    const at = (level: number) => tiles.filter((t) => t.level === level);
    assert.equal(at(0).filter((t) => t.width === 256).length, 273);
    assert.deepEqual(at(0).at(-1), { level: 0, index: 273, width: 112 });
    assert.deepEqual(at(1), [
      { level: 1, index: 0, width: 256 },
      { level: 1, index: 1, width: 17 },
    ]);
    assert.deepEqual(at(2), [{ level: 2, index: 0, width: 1 }]);
    assert.equal(tiles.length, 277);
    assert.deepEqual(treeTiles(256), [
      { level: 0, index: 0, width: 256 },
      { level: 1, index: 0, width: 1 },
    ]);
    assert.deepEqual(treeTiles(0), []);
    assert.deepEqual(treeBundles(257), [
      { level: 'entries', index: 0, width: 256 },
      { level: 'entries', index: 1, width: 1 },
    ]);
  });

  test('widths, and what a log of a size can serve: full tiles it covers, partial ones of any size it had', () => {
    assert.equal(tileWidth(0, 273, 70_000), 112);
    assert.equal(tileWidth(0, 274, 70_000), 0);
    assert.equal(tileWidth(1, 1, 70_000), 17);
    assert.equal(tileWidth(2, 0, 70_000), 1);
    assert.equal(servable({ level: 0, index: 273, width: 112 }, 70_000), true);
    assert.equal(
      servable({ level: 0, index: 273, width: 5 }, 70_000),
      true,
      'the partial tile of size 69 893',
    );
    assert.equal(servable({ level: 0, index: 273, width: 113 }, 70_000), false);
    assert.equal(servable({ level: 0, index: 273, width: 256 }, 70_000), false);
    assert.equal(servable({ level: 0, index: 10, width: 256 }, 70_000), true);
    assert.equal(
      servable({ level: 0, index: 10, width: 7 }, 70_000),
      true,
      'kept after its full tile exists',
    );
    assert.equal(servable({ level: 'entries', index: 274, width: 1 }, 70_000), false);
    assert.equal(servable({ level: 3, index: 0, width: 1 }, 70_000), false);
  });
});

describe('the tree from its tiles', () => {
  const big = 70_000;
  const packed = leaves(big);
  const levels = tileLevels(packed, big, sha256);

  test('levels: 256 leaf hashes make one hash a level up, the MTH of a full tile', () => {
    assert.deepEqual(
      levels.map((l) => l.length / 32),
      [70_000, 273, 1],
    );
    assert.deepEqual(levels[1].subarray(0, 32), rootOfNodes(packed, 256, sha256));
    assert.deepEqual(levels[2], rootOfNodes(packed, 65_536, sha256));
  });

  // A tile of a smaller tree is the same bytes in the larger one: the levels of 70 000 serve them all.
  for (const size of [1, 2, 255, 256, 257, 511, 512, 65_535, 65_537, 70_000]) {
    test(`size ${size}: root, inclusion and consistency proofs from its tiles are RFC 9162's`, () => {
      const read: TileRef[] = [];
      const rangeHash = tileRangeHash(
        size,
        (tile) => {
          read.push(tile);
          return tileFromLevels(levels, tile);
        },
        sha256,
      );
      assert.deepEqual(rangeHash(0, size), rootOfNodes(packed, size, sha256));
      assert.ok(
        read.every((t) => t.width === tileWidth(t.level, t.index, size)),
        'only tiles of this size',
      );
      // Each proof from all the leaves rehashes the tree: few of them on the large sizes.
      const some = (list: number[]) => (size > 1000 ? list.slice(1, 2) : list);
      for (const index of some([0, Math.floor(size / 2), size - 1])) {
        assert.deepEqual(
          hex(inclusionProofFrom(index, size, rangeHash)),
          hex(inclusionProofFromLeaves(packed, size, index, sha256)),
        );
      }
      for (const first of some([1, Math.floor(size / 3), size - 1]).filter((f) => f > 0 && f < size)) {
        assert.deepEqual(
          hex(consistencyProofFrom(first, size, rangeHash)),
          hex(consistencyProofFromLeaves(packed, first, size, sha256)),
        );
      }
    });
  }

  test('a client fetches only the tiles a proof needs: a few, whatever the size', () => {
    const needed = tilesNeeded(70_000, (rangeHash) => inclusionProofFrom(45_874, 70_000, rangeHash));
    assert.deepEqual(needed.map(tilePath).sort(), [
      'tile/0/179',
      'tile/0/273.p/112',
      'tile/1/000',
      'tile/1/001.p/17',
    ]);
    const missing = tileRangeHash(70_000, () => undefined, sha256);
    assert.throws(() => missing(0, 70_000), /tile\/.* is needed and not at hand/);
  });

  test('a served tile that is not the tree’s is named with the first hash that differs', () => {
    const tile = { level: 0, index: 3, width: 256 };
    const good = tileFromLevels(levels, tile);
    assert.equal(tileProblem(levels, tile, good), null);
    const bad = new Uint8Array(good);
    bad[17 * 32 + 5] ^= 1;
    assert.equal(tileProblem(levels, tile, bad), "tile/0/003 is not the tree's: its hash 17 differs");
    assert.equal(tileProblem(levels, tile, good.subarray(0, 64)), 'tile/0/003 has 64 bytes, not 8192');
  });
});

describe('entry bundles', () => {
  test('each entry a big-endian uint16 length and its bytes, and back', () => {
    const entries = [new Uint8Array(0), new TextEncoder().encode('{"a":1}'), new Uint8Array(65_535).fill(7)];
    const bundle = encodeBundle(entries);
    assert.deepEqual([...bundle.subarray(0, 4)], [0, 0, 0, 7]);
    assert.deepEqual([...bundle.subarray(11, 13)], [0xff, 0xff]);
    assert.equal(bundle.length, 2 + 2 + 7 + 2 + 65_535);
    assert.deepEqual(
      parseBundle(bundle).map((e) => [...e]),
      entries.map((e) => [...e]),
    );
    assert.throws(() => encodeBundle([new Uint8Array(65_536)]), /entry 0 of the bundle has 65536 bytes/);
    assert.throws(() => parseBundle(bundle.subarray(0, bundle.length - 1)), /runs past its end/);
    assert.throws(() => parseBundle(new Uint8Array([0])), /ends inside the length/);
  });
});
