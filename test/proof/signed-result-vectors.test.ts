import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { nodeSha256 } from '../../src/cli/verify/verify-context.ts';
import { signedResultBytes, signedResultOf, verifySignedResult } from '../../src/proof/signed-result.ts';
import { bearer, startTestApp } from '../helpers/app.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const VECTORS = root('test/fixtures/signed-result-vectors.json');
const REFERENCE = root('docs/signed-result-reference.py');
const GENERATOR = root('docs/signed-result-vectors.py');

interface Vector {
  name: string;
  valid: boolean;
  result: Record<string, unknown>;
  signed_bytes?: string;
}
const fixture = JSON.parse(readFileSync(VECTORS, 'utf8')) as { keys: unknown; vectors: Vector[] };

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const noPython = python.status === 0 ? undefined : 'python3 is not installed';
const runPython = (args: string[]) => spawnSync('python3', args, { encoding: 'utf8' });

describe('signed results: the vectors made by the Python reference', () => {
  for (const vector of fixture.vectors) {
    test(`${vector.name}: ${vector.valid ? 'valid' : 'refused'} here too`, () => {
      const report = verifySignedResult(vector.result, fixture.keys, nodeSha256);
      assert.equal(report.valid, vector.valid, JSON.stringify(report.checks, null, 2));
      if (vector.signed_bytes === undefined) return;
      const result = signedResultOf(vector.result)!;
      const signed = result.signed as { serial: number; issued_at: string };
      const bytes = signedResultBytes(result, signed.serial, signed.issued_at);
      assert.equal(new TextDecoder().decode(bytes), vector.signed_bytes);
    });
  }

  test('the Python reference re-derives the vectors and checks them', { skip: noPython }, () => {
    const derived = runPython([GENERATOR, '--check', VECTORS]);
    assert.equal(derived.status, 0, derived.stdout + derived.stderr);
    const checked = runPython([REFERENCE, '--vectors', VECTORS]);
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    assert.equal(checked.stdout.trim().split('\n').length, fixture.vectors.length);
  });
});

describe('signed results: the Python reference checks what the service signs', { skip: noPython }, () => {
  test('every endpoint’s signed result verifies, and a changed one does not', async () => {
    const t = await startTestApp();
    const dir = mkdtempSync(join(tmpdir(), 'tyche-signed-python-'));
    try {
      const key = await t.key();
      const post = (url: string, body: unknown) =>
        t.app.inject({
          method: 'POST',
          url,
          headers: { ...bearer(key), 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      const responses = [
        await t.app.inject({
          url: '/api/v1/random/int?min=-50&max=50&count=20&signed=true',
          headers: bearer(key),
        }),
        await post('/api/v1/random/choice?signed=true', {
          items: [{ '\uFFFF': 1, '\u{1F600}': [0.5, 1e-9, 2e21], é: '\u0000\u2028' }, 'x'],
          count: 2,
          unique: true,
        }),
        await post('/api/v1/random/shuffle?signed=true', { items: ['a', 'b', { c: -1.25 }, null, true] }),
        await t.app.inject({ url: '/api/v1/random/bytes?n=64&signed=true', headers: bearer(key) }),
      ];
      writeFileSync(
        join(dir, 'keys.json'),
        (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).body,
      );
      for (const [i, res] of responses.entries()) {
        assert.equal(res.statusCode, 200, res.body);
        writeFileSync(join(dir, `${i}.json`), res.body);
        const checked = runPython([REFERENCE, join(dir, `${i}.json`), join(dir, 'keys.json')]);
        assert.equal(checked.status, 0, `${res.body}\n${checked.stdout}${checked.stderr}`);
      }
      const changed = { ...responses[0].json(), count: 19 };
      writeFileSync(join(dir, 'changed.json'), JSON.stringify(changed));
      const refused = runPython([REFERENCE, join(dir, 'changed.json'), join(dir, 'keys.json')]);
      assert.equal(refused.status, 1, refused.stdout + refused.stderr);
      assert.match(refused.stdout, /✗ hash/);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
