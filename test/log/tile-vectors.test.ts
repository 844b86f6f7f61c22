import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTileReader, type TileReader } from '../../src/log/tile-reader.ts';
import { createTransparencyLog } from '../../src/log/transparency-log.ts';
import { leafHash } from '../../src/proof/merkle.ts';
import { encodeBundle, parseTilePath, type TileName, tilePath, treeTiles } from '../../src/proof/tiles.ts';
import { tileFromLevels, tileLevels, tileRangeHash } from '../../src/proof/tiles-tree.ts';
import { storeTargets } from '../helpers/stores.ts';
import { sha256 } from './log-reference.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const VECTORS = root('test/fixtures/tlog-tiles-vectors.json');
const GENERATOR = root('docs/tlog-tiles-vectors.py');

interface Fixture {
  paths: { level: number | 'entries'; index: number; width: number; path: string }[];
  shapes: { size: number; full: number; partial: string[] }[];
  log: {
    size: number;
    first_bundle_of_2: string;
    first_tile_of_2: string;
    sizes: { size: number; root: string; tiles: Record<string, string>; bundles: Record<string, string> }[];
  };
}
const fixture = JSON.parse(readFileSync(VECTORS, 'utf8')) as Fixture;
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const digest = (bytes: Uint8Array) => hexOf(sha256(bytes));
const entry = (i: number) => new TextEncoder().encode(`tyche tile vector ${i}`);
const named = (path: string) => parseTilePath(path) as TileName;

describe('tiles: the vectors made by docs/tlog-tiles-vectors.py', () => {
  test('paths, both ways', () => {
    for (const v of fixture.paths) {
      const name = { level: v.level, index: v.index, width: v.width };
      assert.equal(tilePath(name), v.path);
      assert.deepEqual(parseTilePath(v.path), name);
    }
  });

  test('which tiles each size has', () => {
    for (const shape of fixture.shapes) {
      const tiles = treeTiles(shape.size);
      assert.equal(tiles.filter((t) => t.width === 256).length, shape.full, String(shape.size));
      assert.deepEqual(tiles.filter((t) => t.width < 256).map(tilePath), shape.partial, String(shape.size));
    }
  });

  test('the log of 65 836 entries: its tiles, bundles and roots, at its size and an earlier one', () => {
    const { size } = fixture.log;
    const packed = new Uint8Array(size * 32);
    for (let i = 0; i < size; i++) packed.set(leafHash(entry(i), sha256), i * 32);
    const levels = tileLevels(packed, size, sha256);
    const bundle = (name: TileName) =>
      encodeBundle(Array.from({ length: name.width }, (_, k) => entry(name.index * 256 + k)));
    assert.equal(hexOf(bundle({ level: 'entries', index: 0, width: 2 })), fixture.log.first_bundle_of_2);
    assert.equal(
      hexOf(tileFromLevels(levels, { level: 0, index: 0, width: 2 })),
      fixture.log.first_tile_of_2,
    );
    for (const at of fixture.log.sizes) {
      for (const [path, expected] of Object.entries(at.tiles)) {
        const name = named(path);
        assert.equal(
          digest(tileFromLevels(levels, { ...name, level: name.level as number })),
          expected,
          path,
        );
      }
      for (const [path, expected] of Object.entries(at.bundles)) {
        assert.equal(digest(bundle(named(path))), expected, path);
      }
      const rangeHash = tileRangeHash(at.size, (tile) => tileFromLevels(levels, tile), sha256);
      assert.equal(hexOf(rangeHash(0, at.size)), at.root, `root of ${at.size}`);
    }
  });

  const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  test('the Python generator re-derives the fixture', {
    skip: python.status === 0 ? undefined : 'python3 is not installed',
  }, () => {
    const derived = spawnSync('python3', [GENERATOR, '--check', VECTORS], { encoding: 'utf8' });
    assert.equal(derived.status, 0, derived.stdout + derived.stderr);
  });
});

// The stored tree serves the same bytes: the vectors' first entries, appended one per transaction.
const EARLIER = fixture.log.sizes[0];
const GROWN = EARLIER.size + 300;

for (const target of await storeTargets()) {
  describe(`tiles read from the stored tree (${target.dialect})`, { skip: target.skip }, () => {
    let tiles: TileReader;
    let cleanup: (() => Promise<void>) | undefined;
    let append: (...data: Uint8Array[]) => Promise<unknown>;
    before(async () => {
      const opened = await target.open();
      cleanup = opened.cleanup;
      const log = createTransparencyLog({ db: opened.store.db });
      tiles = createTileReader({ db: opened.store.db });
      let i = 0;
      // Many appends a transaction: the tree is the same, and the test waits on fewer commits.
      append = (...data) =>
        opened.store.db.transaction().execute(async (trx) => {
          for (const leafData of data) await log.append(trx, { kind: 'seal', id: `s-${i++}`, leafData });
        });
      await append(...Array.from({ length: EARLIER.size }, (_, k) => entry(k)));
    });
    after(() => cleanup?.());

    const read = async (path: string) => (await tiles.read(named(path))).bytes;

    test(`at size ${EARLIER.size}, every tile and bundle of the vectors; beyond it, none`, async () => {
      for (const [path, expected] of [...Object.entries(EARLIER.tiles), ...Object.entries(EARLIER.bundles)]) {
        const bytes = await read(path);
        assert.ok(bytes, path);
        assert.equal(digest(bytes), expected, path);
      }
      for (const path of [
        'tile/0/003',
        'tile/0/003.p/6',
        'tile/entries/003.p/6',
        'tile/1/000.p/4',
        'tile/2/000.p/1',
      ]) {
        assert.deepEqual(await tiles.read(named(path)), { size: EARLIER.size, bytes: null }, path);
      }
    });

    test('after the log grows, the partial tiles of the earlier size are still the same bytes', async () => {
      await append(...Array.from({ length: GROWN - EARLIER.size }, (_, k) => entry(EARLIER.size + k)));
      for (const [path, expected] of [...Object.entries(EARLIER.tiles), ...Object.entries(EARLIER.bundles)]) {
        assert.equal(digest((await read(path)) as Uint8Array), expected, path);
      }
      assert.equal((await read('tile/0/003'))?.length, 256 * 32, 'the full tile is there too');
      assert.equal((await read(`tile/1/000.p/${Math.floor(GROWN / 256)}`))?.length, 4 * 32);
    });

    test('an entry too long for a bundle (a log written before digests) makes its bundle unservable', async () => {
      await append(new Uint8Array(65_536).fill(0x20));
      const at = GROWN;
      const path = `tile/entries/${String(Math.floor(at / 256)).padStart(3, '0')}.p/${(at % 256) + 1}`;
      await assert.rejects(
        tiles.read(named(path)),
        new RegExp(`entry ${at} has 65536 bytes, more than an entry bundle holds \\(65535\\)`),
      );
      assert.ok(await read(`tile/0/${String(Math.floor(at / 256)).padStart(3, '0')}.p/${(at % 256) + 1}`));
    });
  });
}
