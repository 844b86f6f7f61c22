import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Certificate } from '../../../src/giveaways/draw/certificate.ts';
import { runTyche } from '../../helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../../helpers/server-process.ts';
import { downloadVerifier, olderNode, runStandalone } from '../../helpers/standalone-verifier.ts';

describe('tyche verify', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let certificateId: string;
  let verifyUrl: string;
  let cert: Certificate;
  const file = (name: string) => join(dir, name);
  const tamperedFile = (name: string, change: (c: Certificate) => void) => {
    const copy = structuredClone(cert);
    change(copy);
    writeFileSync(file(name), JSON.stringify(copy));
    return file(name);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tyche-verify-'));
    env = { DATA_DIR: join(dir, 'data'), TYCHE_SOURCES: 'system' };
    server = await startServerProcess(env);
    const created = await runTyche(['keys', 'create', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const auth = {
      authorization: `Bearer ${JSON.parse(created.stdout).key}`,
      'content-type': 'application/json',
    };
    const api = async (path: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method: body ? 'POST' : 'GET',
        headers: auth,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.ok(res.ok, `${path}: ${res.status}`);
      return res;
    };
    const giveaway = await (
      await api('/giveaways', { title: 'CLI check', winners_count: 3, draw_mode: 'instant' })
    ).json();
    const participants = Array.from({ length: 40 }, (_, i) => ({
      telegram_id: 9_000_000_000 + i * 7919,
      username: `user_${i}`,
      first_name: i % 5 === 0 ? `=HYPERLINK("${i}")` : `Name, "${i}"`,
    }));
    await api(`/giveaways/${giveaway.public_id}/participants`, { participants });
    const drawn = await (await api(`/giveaways/${giveaway.public_id}/draw`, {})).json();
    ({ certificate_id: certificateId, verify_url: verifyUrl } = drawn);
    const csv = await (await api(`/giveaways/${giveaway.public_id}/participants.csv?bom=true`)).text();
    writeFileSync(file('participants.csv'), csv);
    cert = await (await fetch(`${verifyUrl}.json`)).json();
    writeFileSync(file('certificate.json'), JSON.stringify(cert, null, 2));
    writeFileSync(file('keys.json'), await (await fetch(`${server.url}/.well-known/tyche-keys.json`)).text());
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a verify_url: every check passes, exit 0', async () => {
    const res = await runTyche(['verify', verifyUrl], {});
    assert.equal(res.code, 0, res.stdout + res.stderr);
    for (const line of [
      '✓ Certificate format',
      '✓ Certificate hash',
      '✓ Ed25519 signature',
      '✓ Randomness R',
      '✓ Seed',
      '✓ Winner selection',
    ]) {
      assert.ok(res.stdout.includes(line), `missing ${line}:\n${res.stdout}`);
    }
    assert.match(res.stdout, /- Participant list: not checked/);
    // v1 rests on the operator's randomness: said on its own line and in the verdict, never a bare VALID.
    assert.match(res.stdout, /^• Trust: the operator's randomness must be trusted$/m);
    assert.match(
      res.stdout,
      /\nVALID \(tyche-draw-v1\): every check passed, but the operator's randomness must be trusted\.\n$/,
    );
    assert.doesNotMatch(res.stdout, /✗/);
  });

  test('--json: one object with the checks, the trust level and the verdict', async () => {
    const res = await runTyche(['verify', verifyUrl, '--json'], {});
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const report = JSON.parse(res.stdout);
    assert.equal(report.valid, true);
    assert.equal(report.algorithm, 'tyche-draw-v1');
    assert.equal(report.trust, 'operator');
    assert.equal(report.trust_label, "the operator's randomness must be trusted");
    assert.equal(report.certificate_id, certificateId);
    assert.ok(report.checks.some((c: { id: string; ok: boolean }) => c.id === 'signature' && c.ok));
    assert.deepEqual(
      report.not_checked.map((n: { id: string }) => n.id),
      ['participants'],
    );
    assert.match(report.verdict, /operator's randomness must be trusted/);
  });

  test('an id (from PUBLIC_BASE_URL), the .json and .pdf URLs, and a file with --keys', async () => {
    const inputs = [
      [certificateId],
      [`${verifyUrl}.json`],
      [`${verifyUrl}.pdf`],
      [file('certificate.json'), '--keys', file('keys.json')],
    ];
    const results = await Promise.all(
      inputs.map((args) => runTyche(['verify', ...args], { PUBLIC_BASE_URL: server.url })),
    );
    for (const [i, res] of results.entries()) {
      assert.equal(res.code, 0, `${inputs[i].join(' ')}\n${res.stdout}${res.stderr}`);
    }
  });

  test('with the participants.csv export: participants_hash and the winners’ telegram_ids', async () => {
    const res = await runTyche(
      ['verify', file('certificate.json'), '--participants', file('participants.csv')],
      { PUBLIC_BASE_URL: server.url },
    );
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /✓ Participant list: hash [0-9a-f]{64} matches/);
  });

  test('a tampered certificate fails with exit 1 and names the failed check', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'hash',
        tamperedFile('hash.json', (c) => {
          c.hash = c.hash.replace(/^./, (d) => (d === '0' ? '1' : '0'));
        }),
        /✗ Certificate hash/,
      ],
      [
        'signature',
        tamperedFile('sig.json', (c) => {
          c.signature.value = c.signature.value.split('').reverse().join('');
        }),
        /✗ Ed25519 signature/,
      ],
      [
        'winners',
        tamperedFile('winners.json', (c) => {
          [c.winners[0], c.winners[1]] = [c.winners[1], c.winners[0]];
        }),
        /✗ Winner selection/,
      ],
    ];
    const results = await Promise.all(
      cases.map(([, path]) => runTyche(['verify', path, '--keys', file('keys.json')], {})),
    );
    for (const [i, [name, , failure]] of cases.entries()) {
      const res = results[i];
      assert.equal(res.code, 1, `${name}\n${res.stdout}`);
      assert.match(res.stdout, failure, name);
      assert.match(res.stdout, /INVALID: \d of \d checks failed\.\n$/);
    }
  });

  test('a participant list with one id changed fails with exit 1', async () => {
    const lines = readFileSync(file('participants.csv'), 'utf8').split('\r\n');
    lines[5] = lines[5].replace(/^\d+/, '123');
    writeFileSync(file('tampered.csv'), lines.join('\r\n'));
    const res = await runTyche(['verify', verifyUrl, '--participants', file('tampered.csv')], {});
    assert.equal(res.code, 1, res.stdout);
    assert.match(res.stdout, /✗ Participant list: its hash is [0-9a-f]{64}, not /);
  });

  test('inputs that cannot be read: exit 3 with a clear message; usage errors: exit 2', async () => {
    writeFileSync(file('garbage.json'), '{not json');
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const cases: [string[], number, RegExp][] = [
      [
        ['verify', `http://127.0.0.1:${port}/verify/c_nothing`],
        3,
        /cannot reach http:\/\/127\.0\.0\.1:\d+\/verify\/c_nothing\.json: ECONNREFUSED/,
      ],
      [
        ['verify', `${server.url}/verify/c_unknown0000000`],
        3,
        /no certificate at .*\/verify\/c_unknown0000000\.json \(404/,
      ],
      [
        ['verify', file('garbage.json'), '--keys', file('keys.json')],
        3,
        /certificate at .*garbage\.json is not JSON/,
      ],
      [
        ['verify', file('missing.json'), '--keys', file('keys.json')],
        3,
        /cannot read the certificate file .*missing\.json/,
      ],
      [
        [
          'verify',
          file('certificate.json'),
          '--keys',
          file('keys.json'),
          '--participants',
          file('garbage.json'),
        ],
        3,
        /is not a participants\.csv export/,
      ],
      [['verify'], 2, /exactly one/],
      [['verify', 'a', 'b'], 2, /exactly one/],
      [['verify', 'not an id!'], 2, /neither a certificate id/],
      [['verify', 'https://example.com/other/page'], 2, /not a verify URL/],
    ];
    const results = await Promise.all(cases.map(([args]) => runTyche(args, { PUBLIC_BASE_URL: server.url })));
    for (const [i, [args, code, message]] of cases.entries()) {
      const res = results[i];
      assert.equal(res.code, code, `${args.join(' ')}\n${res.stdout}${res.stderr}`);
      assert.match(res.stderr, message, args.join(' '));
    }
  });

  describe('tyche-verify.mjs, downloaded and run outside the repository', () => {
    const node = olderNode();
    let standalone: { dir: string; file: string };
    const run = (args: string[], env: Record<string, string> = {}) =>
      runStandalone(node.path, standalone.file, args, { cwd: standalone.dir, env });
    before(async () => {
      standalone = await downloadVerifier(server.url);
    });
    after(() => rmSync(standalone.dir, { recursive: true, force: true }));

    test('is one ES module that imports nothing but Node built-ins', async () => {
      const res = await fetch(`${server.url}/tyche-verify.mjs`);
      assert.equal(res.status, 200);
      assert.match(String(res.headers.get('content-type')), /^text\/javascript/);
      const code = await res.text();
      assert.ok(code.startsWith('#!/usr/bin/env node\n'), code.slice(0, 80));
      const specifiers = [...code.matchAll(/^\s*import\s[^'"]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
      assert.ok(specifiers.length > 0, 'the bundle imports node:crypto, node:fs and node:util');
      for (const specifier of specifiers) assert.match(specifier, /^node:/);
      assert.doesNotMatch(code, /\bimport\(\s*["'](?!node:)/);
      const etag = res.headers.get('etag');
      assert.ok(etag);
      const again = await fetch(`${server.url}/tyche-verify.mjs`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
    });

    test(`gives the verdicts of tyche verify line for line (Node ${node.version})`, async () => {
      const tamperedCases = [
        tamperedFile('s-hash.json', (c) => {
          c.hash = c.hash.replace(/^./, (d) => (d === '0' ? '1' : '0'));
        }),
        tamperedFile('s-winners.json', (c) => {
          [c.winners[0], c.winners[1]] = [c.winners[1], c.winners[0]];
        }),
        tamperedFile('s-r.json', (c) => {
          c.randomness.bytes = c.randomness.bytes.replace(/^./, (d) => (d === '0' ? '1' : '0'));
        }),
      ];
      const lines = readFileSync(file('participants.csv'), 'utf8').split('\r\n');
      lines[3] = lines[3].replace(/^\d+/, '77');
      writeFileSync(file('s-tampered.csv'), lines.join('\r\n'));
      const cases: [string[], number][] = [
        [[verifyUrl], 0],
        [[verifyUrl, '--json'], 0],
        [
          [file('certificate.json'), '--keys', file('keys.json'), '--participants', file('participants.csv')],
          0,
        ],
        ...tamperedCases.map((path): [string[], number] => [[path, '--keys', file('keys.json')], 1]),
        [[verifyUrl, '--participants', file('s-tampered.csv')], 1],
        [[verifyUrl, '--json', '--participants', file('s-tampered.csv')], 1],
        [[`${server.url}/verify/c_unknown0000000`], 3],
        [[file('certificate.json'), '--keys', file('missing-keys.json')], 3],
        [['a', 'b'], 2],
        [[verifyUrl, '--relay', 'http://127.0.0.1:9'], 2],
      ];
      const results = await Promise.all(
        cases.map(([args]) => Promise.all([runTyche(['verify', ...args], {}), run(args)])),
      );
      for (const [i, [args, code]] of cases.entries()) {
        const [cli, mjs] = results[i];
        const shown = `${args.join(' ')}\n--- tyche verify\n${cli.stdout}${cli.stderr}--- tyche-verify.mjs\n${mjs.stdout}${mjs.stderr}`;
        assert.equal(cli.code, code, shown);
        assert.equal(mjs.code, code, shown);
        assert.equal(mjs.stdout, cli.stdout, shown);
        const message = (stderr: string) =>
          stderr.split('\n')[0].replace(/^(tyche verify|tyche-verify\.mjs): /, '');
        assert.equal(message(mjs.stderr), message(cli.stderr), shown);
      }
    });

    test('a bare certificate id is read from the server that served the file', async () => {
      const res = await run([certificateId]);
      assert.equal(res.code, 0, res.stdout + res.stderr);
      assert.match(res.stdout, /✓ Ed25519 signature: valid/);
      const elsewhere = await run([certificateId], { PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
      assert.equal(elsewhere.code, 3, elsewhere.stdout + elsewhere.stderr);
      assert.match(elsewhere.stderr, /cannot reach http:\/\/127\.0\.0\.1:9\/verify\//);
    });

    test('--help prints the options and the exit status', async () => {
      const res = await run(['--help']);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /Usage: node tyche-verify\.mjs CERTIFICATE_ID\|VERIFY_URL\|FILE\.json/);
      assert.match(res.stdout, /--receipt RECEIPT_URL\|RECEIPT\.json/);
      assert.match(res.stdout, new RegExp(`Default server: ${server.url.replace(/\./g, '\\.')}`));
    });
  });

  test('--help explains the inputs and the exit status', async () => {
    const res = await runTyche(['verify', '--help'], {});
    assert.equal(res.code, 0);
    assert.match(res.stdout, /Usage: tyche verify CERTIFICATE_ID\|VERIFY_URL\|FILE\.json/);
    assert.match(res.stdout, /Exit status: 0 valid, 1 a check failed/);
  });
});
