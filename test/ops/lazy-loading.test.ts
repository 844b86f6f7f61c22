import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../helpers/cli.ts';

const CHILD = fileURLToPath(new URL('./loaded-packages.ts', import.meta.url));

test('a server loads no bundler, no bot and no X.509 library, and leaves the PDF machinery to the worker that makes PDFs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-lazy-'));
  try {
    const res = await runProcess(process.execPath, [CHILD, join(dir, 'data')], {
      env: { PATH: process.env.PATH },
    });
    assert.equal(res.code, 0, res.stderr);
    const { serving, afterPdf, pdfBytes } = JSON.parse(res.stdout) as Record<string, string[]> & {
      pdfBytes: number;
    };
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
    ]) {
      assert.ok(!serving.includes(heavy), `${heavy} is loaded at start`);
    }
    // A PDF is made in the worker thread: the server's own thread never loads its machinery.
    assert.ok(pdfBytes > 1000);
    for (const heavy of ['esbuild', 'pdfkit', 'fontkit', 'woff2-encoder']) {
      assert.ok(!afterPdf.includes(heavy), `${heavy} is loaded by the server's thread`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
