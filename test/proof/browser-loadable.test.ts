import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { ALLOWED_PACKAGES, importSpecifiers, loadStripped, PROOF_DIR } from './browser-load.ts';
import { buildV2World } from './v2-fixture.ts';

describe('src/proof loads in a browser', () => {
  const files = readdirSync(PROOF_DIR, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );

  test('imports only its own modules and the allowed packages, and no Node-only globals', () => {
    assert.ok(files.includes('verifier.ts'));
    for (const file of files) {
      const source = readFileSync(`${PROOF_DIR}${file}`, 'utf8');
      for (const specifier of importSpecifiers(source)) {
        const inside = !relative(PROOF_DIR, join(dirname(`${PROOF_DIR}${file}`), specifier)).startsWith('..');
        const own = /^\.{1,2}\/[a-z0-9/-]+\.ts$/.test(specifier) && inside;
        assert.ok(own || ALLOWED_PACKAGES.test(specifier), `${file} imports ${specifier}`);
      }
      assert.doesNotMatch(source, /\brequire\(|\bBuffer\b|\bprocess\./, file);
    }
  });

  test('the verifier, type-stripped and on its own, checks a v2 certificate with a pure JavaScript SHA-256', async () => {
    const world = buildV2World({ n: 300, winners: 5, reserves: 3 });
    const { module, dispose } = await loadStripped<typeof import('../../src/proof/verifier.ts')>('verifier');
    try {
      const sha256 = (data: Uint8Array) => nobleSha256(data);
      const input = { certificate: world.certificate, keys: world.keys, sha256, chains: [world.chain.info] };
      const ok = await module.verifyCertificate(input);
      assert.equal(ok.valid, true, JSON.stringify(ok.checks.filter((c) => !c.ok)));
      const bad = structuredClone(world.certificate);
      bad.winners[0].salt = '00'.repeat(16);
      const failed = await module.verifyCertificate({ ...input, certificate: bad });
      assert.deepEqual(
        failed.checks.filter((c) => !c.ok).map((c) => c.id),
        ['leaves', 'hash', 'signature'],
      );
    } finally {
      dispose();
    }
  });
});
