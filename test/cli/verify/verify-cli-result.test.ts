import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bearer, startTestApp, type TestApp } from '../../helpers/app.ts';
import { runTyche } from '../../helpers/cli.ts';
import { downloadVerifier, olderNode, runStandalone } from '../../helpers/standalone-verifier.ts';

describe('tyche verify --result', () => {
  let t: TestApp;
  let url: string;
  let dir: string;
  let signed: Record<string, unknown> & {
    signed: { serial: number; account: string; account_serial: number; log_index: number };
    chosen: unknown[];
  };
  let second: typeof signed;
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
    const again = await t.app.inject({
      url: '/api/v1/random/int?min=1&max=9&signed=true',
      headers: bearer(key),
    });
    second = again.json();
    save('second.json', second);
    const moved = (logIndex: number | undefined) => ({
      ...signed,
      signed: { ...signed.signed, log_index: logIndex },
    });
    save('other-entry.json', moved(second.signed.log_index));
    save('no-entry.json', moved(10_000));
    save('no-index.json', moved(undefined));
    // A result signed before results were counted, by the vectors' key (their keys document with it).
    const vectors = JSON.parse(
      readFileSync(
        fileURLToPath(new URL('../../fixtures/signed-result-vectors.json', import.meta.url)),
        'utf8',
      ),
    );
    const uncounted = vectors.vectors.find((v: { name: string }) =>
      v.name.includes('before results were counted'),
    );
    save('uncounted.json', uncounted.result);
    save('vector-keys.json', vectors.keys);
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

  test('a counted result is found in the log: its entry, the entry’s inclusion and its key', async () => {
    const { account, log_index: index } = signed.signed;
    const res = await runTyche(['verify', '--result', file('result.json')], { PUBLIC_BASE_URL: url });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(
      res.stdout,
      new RegExp(`serial ${signed.signed.serial}, result 1 of account ${account}, issued at`),
    );
    assert.match(
      res.stdout,
      new RegExp(`✓ Log entry \\(result\\): entry ${index} counts it as result 1 of account ${account}`),
    );
    assert.match(res.stdout, /✓ Log checkpoint: .*\(pinned now, on first use\)/);
    assert.match(
      res.stdout,
      new RegExp(`✓ Log inclusion \\(result\\): the result is entry ${index} of the log`),
    );
    assert.match(
      res.stdout,
      /✓ Signing key in the log \(result\): its key was announced in the log before entry/,
    );
    assert.ok(res.stdout.includes(`tyche log verify ${url}/log --account ${account}`), res.stdout);
    const next = await runTyche(['verify', '--result', file('second.json'), '--json'], {
      PUBLIC_BASE_URL: url,
    });
    assert.equal(next.code, 0, next.stdout + next.stderr);
    const out = JSON.parse(next.stdout);
    assert.deepEqual([out.account, out.account_serial, out.log_index], [account, 2, second.signed.log_index]);
    const viaKeysUrl = await runTyche(
      ['verify', '--result', file('result.json'), '--keys', `${url}/.well-known/tyche-keys.json`],
      {},
    );
    assert.equal(viaKeysUrl.code, 0, viaKeysUrl.stdout + viaKeysUrl.stderr);
    assert.match(viaKeysUrl.stdout, /✓ Log inclusion \(result\)/);
  });

  test('a result pointed at another entry, at none, or at no index fails its log check', async () => {
    for (const [name, problem] of [
      [
        'other-entry.json',
        /✗ Log entry \(result\): entry \d+ is not this result's: entry \d+: it is logged as result \d+ but holds/,
      ],
      [
        'no-entry.json',
        /✗ Log entry \(result\): entry 10000 is not this result's: the log has no entry 10000/,
      ],
      ['no-index.json', /✗ Log entry \(result\): the result names no log_index/],
    ] as const) {
      const res = await runTyche(['verify', '--result', file(name)], { PUBLIC_BASE_URL: url });
      assert.equal(res.code, 1, `${name}\n${res.stdout}${res.stderr}`);
      assert.match(res.stdout, problem, name);
      assert.match(res.stdout, /✓ Signature: /, 'the signature itself still holds');
    }
  });

  test('a result signed before results were counted still verifies, with a warning', async () => {
    const res = await runTyche(
      ['verify', '--result', file('uncounted.json'), '--keys', file('vector-keys.json')],
      {},
    );
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(
      res.stdout,
      /! Counted per account: warning: signed before results were counted per account/,
    );
    assert.doesNotMatch(res.stdout, /Log entry/);
    assert.match(
      res.stdout,
      /VALID \(signed-result\): no check failed, 1 with a warning \(Counted per account\)/,
    );
    const fromFile = await runTyche(
      ['verify', '--result', file('result.json'), '--keys', file('keys.json')],
      {},
    );
    assert.equal(fromFile.code, 0, fromFile.stdout + fromFile.stderr);
    assert.match(
      fromFile.stdout,
      /- Transparency log: not checked: the keys do not come from a server's \/\.well-known\/tyche-keys\.json/,
    );
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
      ['verify', '--result', file('result.json'), '--witness', 'w+1+AQ'],
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
      assert.match(good.stdout, /✓ Log inclusion \(result\)/);
      assert.match(good.stdout, /VALID \(signed-result\)/);
      const elsewhere = await run('other-entry.json');
      assert.equal(elsewhere.code, 1, elsewhere.stdout + elsewhere.stderr);
      const bad = await run('changed.json');
      assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    } finally {
      rmSync(standalone.dir, { recursive: true, force: true });
    }
  });
});
