import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { signingKeyFromSecret } from '../../src/signing/certificate-crypto.ts';
import { LEASE_MS, REFRESH_MS } from '../../src/signing/signer.ts';
import { draw, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { startTestApp } from '../helpers/app.ts';
import { runTyche } from '../helpers/cli.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

interface PublishedKey {
  kid: string;
  retired_at: string | null;
}

for (const target of await storeTargets()) {
  describe(`tyche signing-key rotate on ${target.dialect}`, { skip: target.skip }, () => {
    test('new certificates use the new key; old ones keep verifying, through the log too', async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // The clock starts at the wall clock's time: the CLI below stamps its key with the real time.
      const clock = createFakeClock(Date.now());
      const t = await startTestApp({ dialect: target.dialect, clock, config: { PUBLIC_BASE_URL: base } });
      try {
        await t.app.listen({ host: '127.0.0.1', port });
        const key = await t.key();
        const drawnWith = async () => {
          const res = await draw(t, key, await readyGiveaway(t, key));
          assert.equal(res.statusCode, 200, res.body);
          const id = res.json().certificate_id as string;
          const cert = await t.services.giveaways.certificates.get(id);
          return { id, kid: cert?.signature.kid };
        };
        const keys = async (): Promise<PublishedKey[]> =>
          (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json().keys;

        const before = await drawnWith();
        const rotated = await runTyche(['signing-key', 'rotate', '--json'], t.env);
        assert.equal(rotated.code, 0, rotated.stderr);
        const { kid, replaced } = JSON.parse(rotated.stdout);
        assert.deepEqual(replaced, [before.kid]);
        assert.notEqual(kid, before.kid);

        // A running process takes the new key up at its next read, within REFRESH_MS.
        clock.advance(REFRESH_MS);
        const after = await drawnWith();
        assert.equal(after.kid, kid);
        // The old key stays valid while the lease the process took on it before lasts.
        const inUse = await keys();
        assert.deepEqual(
          inUse.map((k) => [k.kid, k.retired_at]),
          [
            [before.kid, null],
            [kid, null],
          ],
        );

        clock.advance(LEASE_MS - REFRESH_MS);
        assert.equal((await drawnWith()).kid, kid);
        const retired = (await keys()).find((k) => k.kid === before.kid);
        // Retired by the first read after the last lease on it ended, at that moment.
        assert.equal(retired?.retired_at, clock.now().toISOString());

        for (const cert of [before, after]) {
          const verified = await runTyche(['verify', `${base}/verify/${cert.id}`], {});
          assert.equal(verified.code, 0, verified.stdout + verified.stderr);
        }
        const log = await runTyche(['log', 'verify', `${base}/log`, '--json'], {});
        assert.equal(log.code, 0, log.stdout + log.stderr);
        // The log announces the new key and, once no lease on it lasted, the old key's retirement.
        const size = (await (await fetch(`${base}/log/checkpoint`)).text()).split('\n')[1];
        const { entries } = await (await fetch(`${base}/log/entries?start=0&end=${size}`)).json();
        const keyEntries = (entries as { kind: string; leaf_data: string }[])
          .filter((e) => e.kind === 'key')
          .map((e) => JSON.parse(Buffer.from(e.leaf_data, 'base64').toString('utf8')));
        assert.deepEqual(
          keyEntries.map((e) => [e.kid, e.retired_at ?? null]),
          [
            [before.kid, null],
            [kid, null],
            [before.kid, retired?.retired_at],
          ],
        );
        const listed = await runTyche(['signing-key', 'list', '--json'], t.env);
        assert.deepEqual(
          JSON.parse(listed.stdout).map((k: PublishedKey) => [k.kid, k.retired_at !== null]),
          [
            [before.kid, true],
            [kid, false],
          ],
        );
      } finally {
        await t.close();
      }
    });
  });
}

describe('keys from a file', () => {
  test('export moves the generated key into a file that then signs in its place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-keyfile-'));
    try {
      const env = { DATA_DIR: dir };
      const [generated] = JSON.parse((await runTyche(['signing-key', 'list', '--json'], env)).stdout);
      const file = join(dir, 'exported.key');
      const exported = await runTyche(['signing-key', 'export', file], env);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(exported.stdout.trim(), generated.kid);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(signingKeyFromSecret(readFileSync(file, 'utf8').trim()).kid, generated.kid);

      const configured = { ...env, TYCHE_SIGNING_KEY_FILE: file };
      const listed = JSON.parse((await runTyche(['signing-key', 'list', '--json'], configured)).stdout);
      assert.deepEqual(listed, [generated], 'the same key, still the only one, not retired');
      const again = await runTyche(['signing-key', 'export', join(dir, 'other.key')], configured);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /already comes from TYCHE_SIGNING_KEY/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('generate writes an owner-only key file that a configured key rotation uses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-keyfile-'));
    try {
      const file = join(dir, 'signing.key');
      const generated = await runTyche(['signing-key', 'generate', file], {});
      assert.equal(generated.code, 0, generated.stderr);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(signingKeyFromSecret(readFileSync(file, 'utf8').trim()).kid, generated.stdout.trim());
      assert.match(generated.stderr, /TYCHE_SIGNING_KEY_FILE=/);

      const again = await runTyche(['signing-key', 'generate', file], {});
      assert.equal(again.code, 1);
      assert.match(again.stderr, /exists already/);

      const configured = await runTyche(['signing-key', 'rotate'], {
        DATA_DIR: dir,
        TYCHE_SIGNING_KEY_FILE: file,
      });
      assert.equal(configured.code, 2);
      assert.match(configured.stderr, /comes from TYCHE_SIGNING_KEY or TYCHE_SIGNING_KEY_FILE: rotate it by/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
