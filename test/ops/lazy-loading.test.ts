import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../helpers/cli.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const CHILD = fileURLToPath(new URL('./loaded-packages.ts', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/tyche.js', import.meta.url));

/** The API reference: its plugin holds its 4.7 MB browser script as one string. */
const REFERENCE = ['@scalar/fastify-api-reference', '@scalar/client-side-rendering'];

test('a server loads no bundler, no bot, no X.509 library, no API reference and on SQLite no PostgreSQL driver, and leaves the PDF machinery to the worker that makes PDFs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-lazy-'));
  try {
    const res = await runProcess(process.execPath, [CHILD, join(dir, 'data')], {
      env: { PATH: process.env.PATH },
    });
    assert.equal(res.code, 0, res.stderr);
    const { serving, fetchLoaded, afterDocs, reference, afterPdf, pdfBytes } = JSON.parse(
      res.stdout,
    ) as Record<string, string[]> & { fetchLoaded: boolean; reference: number[]; pdfBytes: number };
    assert.equal(fetchLoaded, false, "Node's fetch implementation is loaded at start");
    // Serving: the HTTP stack is there, the rest is not.
    assert.ok(serving.includes('fastify'), serving.join(' '));
    for (const heavy of [
      'esbuild',
      'pdfkit',
      'fontkit',
      'qrcode',
      'woff2-encoder',
      'harfbuzzjs',
      'grammy',
      'pkijs',
      'asn1js',
      // On SQLite, the PostgreSQL driver.
      'pg',
      'pg-cursor',
      // The Markdown renderer of /docs/draw-algorithm.
      'marked',
      ...REFERENCE,
    ]) {
      assert.ok(!serving.includes(heavy), `${heavy} is loaded at start`);
    }
    // The reference is loaded by its first visitor, and then answers.
    assert.deepEqual(reference, [200, 200]);
    assert.ok(afterDocs.includes(REFERENCE[0]), afterDocs.join(' '));
    // A PDF is made in the renderer process: the server never loads its machinery.
    assert.ok(pdfBytes > 1000);
    for (const heavy of ['esbuild', 'pdfkit', 'fontkit', 'woff2-encoder']) {
      assert.ok(!afterPdf.includes(heavy), `${heavy} is loaded by the server's thread`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a server started as npm start starts it never loads Node's type stripper", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-lazy-'));
  try {
    // Written by the server process as it exits: the internal modules Node loaded into it.
    const report = join(dir, 'loaded.json');
    const probe = `import { writeFileSync } from 'node:fs';
if (process.argv.includes('serve')) process.on('exit', () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`;
    const server = await startServerProcess(
      {
        DATA_DIR: join(dir, 'data'),
        TYCHE_SOURCES: 'system',
        NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(probe)}`,
      },
      { entry: BIN },
    );
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    assert.equal(await server.stop(), 0);
    const loaded = JSON.parse(readFileSync(report, 'utf8')) as string[];
    assert.ok(
      loaded.some((name) => name.includes('sqlite')),
      'the report is the server process',
    );
    // amaro: the stripper's WebAssembly and its glue (internal/modules/typescript, which loads it
    // on the first strip, is small and always there).
    assert.deepEqual(
      loaded.filter((name) => name.includes('amaro')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
