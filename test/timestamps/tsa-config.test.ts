import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, createConfig } from '../../src/config.ts';
import { TSA_ROOTS } from '../../src/proof/timestamp/tsa-roots.ts';

describe('TYCHE_TSA_URLS and TYCHE_TSA_TRUST', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-tsa-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('by default two independent public TSAs; an empty value turns timestamps off', () => {
    assert.deepEqual(createConfig({}).TYCHE_TSA_URLS, [
      'http://timestamp.digicert.com',
      'http://timestamp.globalsign.com/tsa/r6advanced1',
    ]);
    assert.deepEqual(createConfig({ TYCHE_TSA_URLS: '' }).TYCHE_TSA_URLS, []);
    assert.deepEqual(
      createConfig({ TYCHE_TSA_URLS: ' https://a.example/tsa , http://b.example ' }).TYCHE_TSA_URLS,
      ['https://a.example/tsa', 'http://b.example'],
    );
  });

  test('anything but distinct http(s) URLs is refused, naming the variable', () => {
    for (const bad of ['ftp://a.example', 'http://a.example,http://a.example', 'http://a.example,,']) {
      assert.throws(() => createConfig({ TYCHE_TSA_URLS: bad }), /^ConfigError: TYCHE_TSA_URLS=/);
    }
  });

  test('TYCHE_TSA_TRUST is a PEM file of certificates, read at start; none by default', () => {
    assert.equal(createConfig({}).tsaTrust, undefined);
    const good = join(dir, 'roots.pem');
    writeFileSync(good, TSA_ROOTS.map((r) => r.pem).join('\n'));
    assert.equal(createConfig({ TYCHE_TSA_TRUST: good }).tsaTrust, TSA_ROOTS.map((r) => r.pem).join('\n'));
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'no certificate here\n');
    const broken = join(dir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n');
    for (const [path, message] of [
      [join(dir, 'missing.pem'), /cannot be read: ENOENT/],
      [empty, /holds no PEM CERTIFICATE block/],
      [broken, /holds a certificate that cannot be read/],
    ] as const) {
      assert.throws(
        () => createConfig({ TYCHE_TSA_TRUST: path }),
        (error: Error) => error instanceof ConfigError && message.test(error.message),
      );
    }
  });
});
