import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { nodeSha256 } from '../../src/cli/verify/verify-context.ts';
import { leafDataOf, readLogEntry } from '../../src/proof/log-entry.ts';
import { resultEntryBody, resultEntryProblem } from '../../src/proof/result-entry.ts';
import { objectHashProblem, objectSignatureProblem } from '../../src/proof/signed-object.ts';
import {
  isCounted,
  type SignedBlock,
  type SignedFields,
  signedResultBytes,
  signedResultOf,
  verifySignedResult,
} from '../../src/proof/signed-result.ts';
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
  /** For a valid result counted per account: its log entry, signed by the result's key. */
  log_entry?: Record<string, unknown>;
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
      const bytes = signedResultBytes(result, result.signed as SignedFields);
      assert.equal(new TextDecoder().decode(bytes), vector.signed_bytes);
      const counted = isCounted(result.signed as SignedFields);
      const warned = report.checks.filter((c) => c.warning !== undefined).map((c) => c.id);
      assert.deepEqual(warned, counted ? [] : ['result-counted'], 'only an uncounted result is warned about');
      assert.equal(vector.log_entry !== undefined, counted, 'every counted result has its log entry');
    });
  }

  for (const vector of fixture.vectors.filter((v) => v.log_entry !== undefined)) {
    test(`${vector.name}: its log entry is the one the result implies, signed by its key`, () => {
      const result = signedResultOf(vector.result) as Record<string, unknown> & { signed: SignedBlock };
      const entry = vector.log_entry!;
      const { hash: _hash, signature: _signature, ...body } = entry;
      assert.deepEqual(body, resultEntryBody(result));
      assert.equal(resultEntryProblem(entry, result), null);
      assert.equal(objectHashProblem(entry, nodeSha256), null);
      assert.equal(objectSignatureProblem(entry, fixture.keys), null);
      const read = readLogEntry(leafDataOf(entry), 'result', String(result.signed.serial));
      assert.ok(read.ok, JSON.stringify(read));
      const other = {
        ...result,
        signed: { ...result.signed, account_serial: result.signed.account_serial! + 1 },
      };
      assert.match(
        resultEntryProblem(entry, other) ?? '',
        /its account_serial is \d+, where the result implies/,
      );
      const changed = { ...entry, request: { endpoint: 'bytes' } };
      assert.match(resultEntryProblem(changed, result) ?? '', /its request is/);
      assert.match(
        resultEntryProblem({ ...entry, note: 'x' }, result) ?? '',
        /members that a result entry does not have/,
      );
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
        const index = res.json().signed.log_index;
        const page = await t.app.inject({ url: `/log/entries?start=${index}&end=${index + 1}` });
        const leaf = Buffer.from(page.json().entries[0].leaf_data, 'base64');
        writeFileSync(join(dir, `${i}.entry.json`), leaf);
        const files = [`${i}.json`, 'keys.json', `${i}.entry.json`].map((name) => join(dir, name));
        const checked = runPython([REFERENCE, ...files]);
        assert.equal(checked.status, 0, `${res.body}\n${checked.stdout}${checked.stderr}`);
        assert.match(checked.stdout, /✓ log entry: /);
      }
      const entryOfAnother = join(dir, '1.entry.json');
      const mismatched = runPython([REFERENCE, join(dir, '0.json'), join(dir, 'keys.json'), entryOfAnother]);
      assert.equal(mismatched.status, 1, mismatched.stdout + mismatched.stderr);
      assert.match(mismatched.stdout, /✗ log entry: its body is not the one the result implies/);
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
