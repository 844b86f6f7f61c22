import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { timestampImprint } from '../../src/proof/timestamp/tsa-request.ts';
import { createFakeTsaCa } from '../helpers/fake-tsa-ca.ts';

const DIR = fileURLToPath(new URL('../../src/proof/timestamp/', import.meta.url));
/** The module of every import and re-export statement (each starts a line). */
const IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gms;

describe('src/proof/timestamp is pure: it runs in a browser as in Node', () => {
  test('it imports only proof modules, pkijs and asn1js, and uses no Node-only global', () => {
    const seen = new Set<string>();
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(DIR, file), 'utf8');
      for (const [, specifier] of source.matchAll(IMPORT)) {
        seen.add(specifier);
        const allowed =
          /^\.\.?\/[a-z0-9-]+\.ts$/.test(specifier) || specifier === 'pkijs' || specifier === 'asn1js';
        assert.ok(allowed, `${file} imports ${specifier}`);
      }
      assert.doesNotMatch(source, /\brequire\(|\bBuffer\b|\bprocess\./, file);
    }
    assert.ok(seen.has('pkijs') && seen.has('../hex.ts'), 'the imports were read');
  });

  test('bundled for the browser (no Node built-in resolvable), checkTimestampToken accepts a good token', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tyche-tsa-bundle-'));
    try {
      const file = join(out, 'token-check.mjs');
      await build({
        entryPoints: [join(DIR, 'token-check.ts')],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        outfile: file,
        logLevel: 'silent',
      });
      const bundled = (await import(
        pathToFileURL(file).href
      )) as typeof import('../../src/proof/timestamp/token-check.ts');
      const ca = await createFakeTsaCa();
      const hash = createHash('sha256').update('bundled').digest('hex');
      const genTime = new Date('2026-02-02T02:02:02.000Z');
      const token = await ca.token({ imprint: await timestampImprint(hash), genTime });
      const result = await bundled.checkTimestampToken(token, { hash, anchors: [ca.rootPem] });
      assert.deepEqual(result, { ok: true, genTime, tsaName: 'Fake TSA', reason: null });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
