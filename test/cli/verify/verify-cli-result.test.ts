import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../../helpers/app.ts';
import { runTyche } from '../../helpers/cli.ts';
import { downloadVerifier, olderNode, runStandalone } from '../../helpers/standalone-verifier.ts';

describe('tyche verify --result', () => {
  let t: TestApp;
  let url: string;
  let dir: string;
  let signed: Record<string, unknown> & { signed: { serial: number }; chosen: unknown[] };
  const file = (name: string) => join(dir, name);
  const save = (name: string, value: unknown) => {
    writeFileSync(file(name), JSON.stringify(value, null, 2));
    return file(name);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tyche-verify-result-'));
    t = await startTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const key = await t.key();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/random/choice?signed=true',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: JSON.stringify({ items: Array.from({ length: 49 }, (_, i) => i + 1), count: 6, unique: true }),
    });
    assert.equal(res.statusCode, 200, res.body);
    signed = res.json();
    save('result.json', signed);
    const record = await t.app.inject({
      url: `/api/v1/operations/${signed.request_id}`,
      headers: bearer(key),
    });
    save('operation.json', record.json());
    const unsigned = await t.app.inject({ url: '/api/v1/random/int?min=1&max=9', headers: bearer(key) });
    save('unsigned.json', unsigned.json());
    save('keys.json', (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json());
    save('changed.json', { ...signed, chosen: [...signed.chosen].reverse() });
    save('renumbered.json', { ...signed, signed: { ...signed.signed, serial: signed.signed.serial + 1 } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a saved response verifies against the server’s published keys, line by line', async () => {
    const res = await runTyche(['verify', '--result', file('result.json')], { PUBLIC_BASE_URL: url });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, new RegExp(`serial ${signed.signed.serial}, issued at `));
    assert.match(res.stdout, /✓ Result hash: [0-9a-f]{64} is the SHA-256/);
    assert.match(res.stdout, /✓ Signature: Ed25519 by published key [0-9a-f]{16}/);
    assert.match(res.stdout, /✓ Signing key in use/);
    assert.match(res.stdout, new RegExp(`chosen: ${signed.chosen.join(', ')}`));
    assert.match(res.stdout, /VALID \(signed-result\): every check passed, but the operator's randomness/);
  });

  test('the operations document verifies as well, and keys can come from a file', async () => {
    const res = await runTyche(
      ['verify', '--result', file('operation.json'), '--keys', file('keys.json')],
      {},
    );
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const json = await runTyche(['verify', '--result', file('operation.json'), '--json'], {
      PUBLIC_BASE_URL: url,
    });
    assert.equal(json.code, 0, json.stderr);
    const out = JSON.parse(json.stdout);
    assert.equal(out.valid, true);
    assert.equal(out.serial, signed.signed.serial);
    assert.equal(out.request_id, signed.request_id);
  });

  test('a changed value, a changed serial or an unsigned result fails, naming the check', async () => {
    for (const [name, check] of [
      ['changed.json', /✗ Result hash: SHA-256 of the canonical JSON is/],
      ['renumbered.json', /✗ Signature: does not verify under key/],
      ['unsigned.json', /✗ Signed block: there is no "signed" block/],
    ] as const) {
      const res = await runTyche(['verify', '--result', file(name)], { PUBLIC_BASE_URL: url });
      assert.equal(res.code, 1, `${name}\n${res.stdout}${res.stderr}`);
      assert.match(res.stdout, check, name);
      assert.match(res.stdout, /INVALID/);
    }
  });

  test('inputs that cannot be read exit 3; --result with other inputs is a usage error', async () => {
    const missing = await runTyche(['verify', '--result', file('missing.json')], { PUBLIC_BASE_URL: url });
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /cannot read the signed result file/);
    for (const args of [
      ['verify', '--result', file('result.json'), 'CERT-1'],
      ['verify', '--result', file('result.json'), '--entrants', file('keys.json')],
    ]) {
      const res = await runTyche(args, { PUBLIC_BASE_URL: url });
      assert.equal(res.code, 2, args.join(' '));
    }
  });

  test('tyche-verify.mjs, downloaded and run on an older Node, gives the same verdicts', async () => {
    const node = olderNode();
    const standalone = await downloadVerifier(url);
    try {
      const run = (name: string) =>
        runStandalone(
          node.path,
          standalone.file,
          ['--result', file(name), '--keys', `${url}/.well-known/tyche-keys.json`],
          {
            cwd: standalone.dir,
          },
        );
      const good = await run('result.json');
      assert.equal(good.code, 0, good.stdout + good.stderr);
      assert.match(good.stdout, /VALID \(signed-result\)/);
      const bad = await run('changed.json');
      assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    } finally {
      rmSync(standalone.dir, { recursive: true, force: true });
    }
  });
});
