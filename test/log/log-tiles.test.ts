import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parseCheckpoint } from '../../src/proof/checkpoint.ts';
import { fromBase64, toHex } from '../../src/proof/hex.ts';
import { leafHash } from '../../src/proof/merkle.ts';
import { inclusionProofFrom } from '../../src/proof/merkle-proofs.ts';
import { parseBundle, tilePath } from '../../src/proof/tiles.ts';
import { tileRangeHash, tilesNeeded } from '../../src/proof/tiles-tree.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { sha256 } from './log-reference.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

for (const target of await storeTargets()) {
  describe(`the log as tiles over HTTP (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    let filled = 0;
    /** Appends `count` entries in one transaction (their content is the tiles' business, not their kind's). */
    const grow = (count: number) =>
      t.store.db.transaction().execute(async (trx) => {
        for (let k = 0; k < count; k++, filled++) {
          const leafData = new TextEncoder().encode(
            JSON.stringify({ filler: filled, pad: 'x'.repeat(filled % 50) }),
          );
          await t.services.transparency.log.append(trx, { kind: 'seal', id: `filler-${filled}`, leafData });
        }
      });
    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
    const size = async () =>
      parseCheckpoint((await get('/log/checkpoint')).body.split('\n\n')[0] + '\n').size;
    /** The leaf data of entries [start, end) as /log/entries serves them. */
    const entries = async (start: number, end: number) => {
      const out: Uint8Array[] = [];
      for (let at = start; at < end; at += 1000) {
        const page = (await get(`/log/entries?start=${at}&end=${Math.min(end, at + 1000)}`)).json();
        out.push(...page.entries.map((e: { leaf_data: string }) => fromBase64(e.leaf_data) as Uint8Array));
      }
      return out;
    };

    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
      await grow(300 - (await t.services.transparency.log.size()));
    });
    after(() => t.close());

    test('a full tile: 256 leaf hashes, immutable, tagged, readable from any origin', async () => {
      const res = await get('/log/tile/0/000');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/octet-stream');
      assert.equal(res.headers['cache-control'], IMMUTABLE);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal(res.rawPayload.length, 8192);
      const leaves = (await entries(0, 256)).map((data) => leafHash(data, sha256));
      assert.deepEqual(new Uint8Array(res.rawPayload), new Uint8Array(Buffer.concat(leaves)));
      const etag = String(res.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
      const again = await get('/log/tile/0/000', { 'if-none-match': etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
    });

    test('a partial tile: cached a minute at most, tagged; one wider than the tree, a full one or a level above are 404', async () => {
      const n = await size();
      const width = n - 256;
      const res = await get(`/log/tile/0/001.p/${width}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'public, max-age=60');
      assert.equal(res.rawPayload.length, width * 32);
      const etag = String(res.headers.etag);
      assert.equal((await get(`/log/tile/0/001.p/${width}`, { 'if-none-match': etag })).statusCode, 304);
      assert.equal((await get('/log/tile/1/000.p/1')).statusCode, 200, 'level 1 holds the MTH of tile 0');
      for (const url of [
        `/log/tile/0/001.p/${width + 1}`,
        '/log/tile/0/001',
        '/log/tile/0/002.p/1',
        '/log/tile/1/000',
        '/log/tile/1/000.p/2',
        '/log/tile/2/000.p/1',
        '/log/tile/entries/002.p/1',
      ]) {
        const beyond = await get(url);
        assert.equal(beyond.statusCode, 404, url);
        assert.match(String(beyond.headers['content-type']), /^application\/problem\+json/, url);
        assert.equal(beyond.json().detail, `The log has ${n} entries: ${url.slice(5)} is beyond it`);
        assert.equal(beyond.headers['access-control-allow-origin'], '*');
      }
      for (const url of [
        '/log/tile/0/x000/000',
        '/log/tile/00/000',
        '/log/tile/0/000.p/256',
        '/log/tile/x/000',
      ]) {
        const bad = await get(url);
        assert.equal(bad.statusCode, 404, url);
        assert.match(bad.json().detail, /is not a tile: tile\/<L>\/<N>\[\.p\/<W>\]/, url);
      }
    });

    test('entry bundles hold exactly the entries /log/entries serves; gzip when the client takes it', async () => {
      const n = await size();
      const plain = await get('/log/tile/entries/000');
      assert.equal(plain.statusCode, 200);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers.vary, 'accept-encoding');
      assert.equal(plain.headers['cache-control'], IMMUTABLE);
      const logged = await entries(0, n);
      assert.deepEqual(
        parseBundle(new Uint8Array(plain.rawPayload)).map((e) => Buffer.from(e).toString('base64')),
        logged.slice(0, 256).map((e) => Buffer.from(e).toString('base64')),
      );
      const zipped = await get(`/log/tile/entries/001.p/${n - 256}`, { 'accept-encoding': 'br, gzip;q=0.8' });
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.equal(zipped.headers['cache-control'], 'public, max-age=60');
      const unzipped = parseBundle(new Uint8Array(gunzipSync(zipped.rawPayload)));
      assert.deepEqual(
        unzipped.map((e) => Buffer.from(e).toString('base64')),
        logged.slice(256).map((e) => Buffer.from(e).toString('base64')),
      );
      const refused = await get('/log/tile/entries/000', { 'accept-encoding': 'gzip;q=0, identity' });
      assert.equal(refused.headers['content-encoding'], undefined);
    });

    test("a client of the tiles alone computes the checkpoint's root and the server's proofs", async () => {
      const checkpoint = parseCheckpoint((await get('/log/checkpoint')).body.split('\n\n')[0] + '\n');
      const n = checkpoint.size;
      const index = 123;
      const compute = (rangeHash: (start: number, end: number) => Uint8Array) => ({
        root: rangeHash(0, n),
        proof: inclusionProofFrom(index, n, rangeHash),
      });
      const fetched = new Map<string, Uint8Array>();
      for (const tile of tilesNeeded(n, compute)) {
        const res = await get(`/log/${tilePath(tile)}`);
        assert.equal(res.statusCode, 200, tilePath(tile));
        fetched.set(tilePath(tile), new Uint8Array(res.rawPayload));
      }
      const { root, proof } = compute(tileRangeHash(n, (tile) => fetched.get(tilePath(tile)), sha256));
      assert.deepEqual(root, checkpoint.root);
      const served = (await get(`/log/proof/inclusion?index=${index}&size=${n}`)).json();
      assert.deepEqual(proof.map(toHex), served.proof);
    });

    test('partial tiles and bundles of an earlier size are still served, unchanged, once the tree grows', async () => {
      const n = await size();
      const paths = [`tile/0/001.p/${n - 256}`, `tile/entries/001.p/${n - 256}`, 'tile/1/000.p/1'];
      const before = await Promise.all(paths.map((p) => get(`/log/${p}`)));
      await grow(512 + 3 - n);
      assert.equal(await size(), 515);
      for (const [i, path] of paths.entries()) {
        const now = await get(`/log/${path}`);
        assert.equal(now.statusCode, 200, path);
        assert.deepEqual(now.rawPayload, before[i].rawPayload, path);
      }
      const full = await get('/log/tile/0/001');
      assert.equal(full.statusCode, 200);
      assert.deepEqual(full.rawPayload.subarray(0, (n - 256) * 32), before[0].rawPayload);
      assert.equal((await get('/log/tile/1/000.p/2')).statusCode, 200);
      assert.equal((await get('/log/tile/0/002.p/3')).statusCode, 200);
    });

    test('the OpenAPI document describes both routes as public octet-stream answers', async () => {
      const doc = (await get('/api/v1/openapi.json')).json();
      for (const [path, id] of [
        ['/log/tile/{level}/{tile}', 'getLogTile'],
        ['/log/tile/entries/{tile}', 'getLogEntryBundle'],
      ]) {
        const op = doc.paths[path]?.get;
        assert.equal(op?.operationId, id, path);
        assert.deepEqual(op.security, []);
        assert.ok(op.responses['200'].content['application/octet-stream'], path);
        assert.ok(op.responses['404'], path);
        assert.ok(op.responses['304'], path);
      }
    });
  });
}
