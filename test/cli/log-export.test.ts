import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, normalize, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sealCertificate } from '../../src/signing/certificate-crypto.ts';
import { draw, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { freshState, runTyche } from '../helpers/cli.ts';
import { storeTargets } from '../helpers/stores.ts';

/** A plain static file server on loopback: `dir` served as /log/, what any static host does. */
async function staticMirror(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = normalize(join(dir, decodeURIComponent(path.replace(/^\/log\//, ''))));
    if (!path.startsWith('/log/') || !file.startsWith(dir + sep) || !existsSync(file)) {
      return res.writeHead(404).end();
    }
    try {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/log`, server };
}

for (const target of await storeTargets()) {
  describe(`tyche log export, and tyche log verify of the mirror (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    let t: TestApp;
    let serverUrl: string;
    let dir: string;
    let mirror: { url: string; server: Server };
    let sealed = 0;

    /** Seals of distinct owners and rounds, signed by the deployment's key: entries every check accepts. */
    const seals = async (count: number) => {
      const key = await t.services.signer.current();
      await t.store.db.transaction().execute(async (trx) => {
        for (let k = 0; k < count; k++, sealed++) {
          const body = {
            type: 'tyche-seal-v2',
            seal_id: `s_export${sealed}`,
            giveaway: {
              public_id: `g_export${sealed}`,
              owner: `o_owner${sealed}`,
              title: `Giveaway ${sealed}`,
            },
            entrants: { count: sealed + 1, root: sealed.toString(16).padStart(64, '0') },
            beacon: { round: 1_000 + sealed },
          };
          const signed = sealCertificate(body, key);
          await t.services.transparency.appendSigned(trx, 'seal', body.seal_id, signed, Date.now());
        }
      });
    };
    const logKey = async () =>
      (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json().log.key as string;

    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
      serverUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const apiKey = await t.key();
      for (let i = 0; i < 2; i++) await draw(t, apiKey, await readyGiveaway(t, apiKey, 4, 1));
      await seals(300 - (await t.services.transparency.log.size()));
      dir = mkdtempSync(join(tmpdir(), 'tyche-mirror-'));
      mirror = await staticMirror(dir);
    });
    after(async () => {
      await new Promise((resolve) => mirror?.server.close(resolve));
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('writes the checkpoint, every tile and every bundle, as the server serves them', async () => {
      const res = await runTyche(['log', 'export', dir], t.env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(
        res.stdout,
        /^Exported the log at size 300 to .*: 2 entry bundles, 3 hash tiles and the checkpoint\. Serve .* as …\/log\/\.$/m,
      );
      assert.match(res.stderr, /^files 6\/6$/m);
      assert.equal(
        readFileSync(join(dir, 'checkpoint'), 'utf8'),
        (await t.app.inject({ url: '/log/checkpoint' })).body,
      );
      for (const path of [
        'tile/0/000',
        'tile/0/001.p/44',
        'tile/1/000.p/1',
        'tile/entries/000',
        'tile/entries/001.p/44',
      ]) {
        const served = await t.app.inject({ url: `/log/${path}` });
        assert.deepEqual(readFileSync(join(dir, path)), served.rawPayload, path);
      }
    });

    test('the mirror verifies with the log key given, or with the key pinned from the server', async () => {
      const given = await runTyche(['log', 'verify', mirror.url, '--log-key', await logKey()], freshState());
      assert.equal(given.code, 0, given.stdout + given.stderr);
      assert.match(
        given.stdout,
        /^✓ Checkpoint: .* at size 300, signed by the log key given with --log-key$/m,
      );
      assert.match(given.stdout, /^✓ Tree: the 300 entries hash to the checkpoint's root$/m);
      assert.match(given.stdout, /^✓ Tiles: the 3 hash tiles of size 300 are the tree's$/m);
      assert.match(given.stdout, /^✓ Entries: every entry is canonical/m);
      assert.match(given.stderr, /^entries 300\/300$/m);

      const nothingPinned = await runTyche(['log', 'verify', mirror.url], freshState());
      assert.equal(nothingPinned.code, 3);
      assert.match(
        nothingPinned.stderr,
        /names no log key, none is pinned for "127\.0\.0\.1:8080\/log"; pass --log-key/,
      );

      const env = freshState();
      const server = await runTyche(['log', 'verify', serverUrl], env);
      assert.equal(server.code, 0, server.stdout);
      assert.match(
        server.stdout,
        /^✓ Tiles: the 3 hash tiles of size 300 are the tree's$/m,
        'the server is read through its tiles too',
      );
      const pinned = await runTyche(['log', 'verify', mirror.url], env);
      assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);
      assert.match(pinned.stdout, /signed by the pinned log key$/m);
      assert.match(
        pinned.stdout,
        /^✓ Consistency with the newest checkpoint seen before \(size 300\): the log only grew$/m,
      );
    });

    test('a tampered tile, a tampered bundle and a missing tile in the mirror are caught', async () => {
      const key = await logKey();
      const verify = () => runTyche(['log', 'verify', mirror.url, '--log-key', key], freshState());
      const tamper = async (
        path: string,
        at: number,
        check: (res: Awaited<ReturnType<typeof verify>>) => void,
      ) => {
        const file = join(dir, path);
        const original = readFileSync(file);
        const changed = Buffer.from(original);
        changed[at] ^= 0x01;
        writeFileSync(file, changed);
        try {
          check(await verify());
        } finally {
          writeFileSync(file, original);
        }
      };
      await tamper('tile/0/000', 17 * 32 + 3, (res) => {
        assert.equal(res.code, 1, res.stdout);
        assert.match(res.stdout, /^✓ Tree: /m);
        assert.match(
          res.stdout,
          /^✗ Tiles: 1 of the 3 hash tiles are not the tree's, the first: tile\/0\/000 is not the tree's: its hash 17 differs$/m,
        );
      });
      await tamper('tile/1/000.p/1', 0, (res) => {
        assert.equal(res.code, 1, res.stdout);
        assert.match(res.stdout, /^✗ Tiles: .*tile\/1\/000\.p\/1 is not the tree's: its hash 0 differs$/m);
      });
      // A byte inside an entry's JSON, past its 2-byte length: the entry no longer hashes as logged.
      await tamper('tile/entries/001.p/44', 40, (res) => {
        assert.equal(res.code, 1, res.stdout);
        assert.match(res.stdout, /^✗ Tree: the 300 entries do not hash to the checkpoint's root$/m);
        assert.match(res.stdout, /^✗ Entries: /m);
      });
      assert.equal((await verify()).code, 0, 'restored');
      renameSync(join(dir, 'tile/0/000'), join(dir, 'moved'));
      try {
        const missing = await verify();
        assert.equal(missing.code, 3);
        assert.match(missing.stderr, /tile\/0\/000 answered 404/);
      } finally {
        renameSync(join(dir, 'moved'), join(dir, 'tile/0/000'));
      }
    });

    test('exporting again after the log grew keeps the earlier partial files; verifiers of either size are served', async () => {
      const env = freshState();
      assert.equal((await runTyche(['log', 'verify', mirror.url, '--log-key', await logKey()], env)).code, 0);
      await seals(520 - 300);
      const res = await runTyche(['log', 'export', dir], t.env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /at size 520 .*: 3 entry bundles, 4 hash tiles and the checkpoint/);
      for (const path of [
        'tile/0/001.p/44',
        'tile/entries/001.p/44',
        'tile/1/000.p/1',
        'tile/0/001',
        'tile/0/002.p/8',
        'tile/1/000.p/2',
      ]) {
        assert.ok(existsSync(join(dir, path)), path);
      }
      const grown = await runTyche(['log', 'verify', mirror.url], env);
      assert.equal(grown.code, 0, grown.stdout + grown.stderr);
      assert.match(
        grown.stdout,
        /^✓ Consistency with the newest checkpoint seen before \(size 300\): the log only grew$/m,
      );
    });
  });
}
