import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLIENT_DIR, GENERATED_FILES, generateClient } from '../../clients/typescript/scripts/generate.ts';

test('the committed OpenAPI document and client types are what the app generates today', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-client-'));
  try {
    await generateClient(dir);
    for (const file of GENERATED_FILES) {
      const fresh = readFileSync(join(dir, file), 'utf8');
      const committed = readFileSync(join(CLIENT_DIR, file), 'utf8');
      assert.ok(
        fresh === committed,
        `clients/typescript/${file} is stale: run \`npm run client:generate\` and commit the result`,
      );
    }
    const document = JSON.parse(readFileSync(join(dir, 'openapi.json'), 'utf8'));
    assert.equal(document.openapi, '3.1.0');
    assert.ok(Object.keys(document.paths).includes('/api/v1/giveaways/{public_id}/draw'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('generating twice gives the same bytes', async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'tyche-client-')), mkdtempSync(join(tmpdir(), 'tyche-client-'))];
  try {
    for (const dir of dirs) await generateClient(dir);
    for (const file of GENERATED_FILES) {
      const [a, b] = dirs.map((dir) => readFileSync(join(dir, file), 'utf8'));
      assert.ok(a.length > 0);
      assert.ok(a === b, `${file} differs between two runs`);
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});
