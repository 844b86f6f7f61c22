import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { anchorCertificates } from '../../src/proof/timestamp/anchors.ts';
import { TSA_ROOTS } from '../../src/proof/timestamp/tsa-roots.ts';
import { readRootFiles } from '../../trust/generate-tsa-roots.ts';

describe('the shipped TSA roots', () => {
  test('src/proof/timestamp/tsa-roots.ts is what trust/generate-tsa-roots.ts makes of trust/tsa/', () => {
    assert.deepEqual(
      TSA_ROOTS.map((r) => ({ ...r })),
      readRootFiles(),
      'run `npx node trust/generate-tsa-roots.ts` after changing trust/tsa/',
    );
  });

  test('each is a self-signed CA certificate, valid now', async () => {
    for (const [cert, root] of anchorCertificates(TSA_ROOTS.map((r) => r.pem)).map(
      (c, i) => [c, TSA_ROOTS[i]] as const,
    )) {
      assert.equal(await cert.verify(), true, `${root.file} verifies under its own key`);
      assert.ok(cert.notAfter.value.getTime() > Date.now(), `${root.file} has not expired`);
    }
  });

  test('docs/timestamps.md gives the provenance and fingerprint of every shipped root', () => {
    const doc = readFileSync(new URL('../../docs/timestamps.md', import.meta.url), 'utf8');
    for (const root of TSA_ROOTS) {
      assert.ok(doc.includes(root.file), `${root.file} is described`);
      assert.ok(doc.includes(root.sha256), `${root.file}'s SHA-256 is given`);
    }
  });
});
