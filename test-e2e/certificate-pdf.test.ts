import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { renderCertificatePdf } from '../src/pdf/certificate-pdf.ts';
import { manyEntrants, sampleCertificateV2 } from '../test/helpers/certificates-v2.ts';
import { runTyche } from '../test/helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import { readPdf } from '../test/pdf/pdf-glyphs.ts';
import { ARTIFACTS, launchChromium } from './browser.ts';

const PDFJS = new URL('../node_modules/pdfjs-dist/build/', import.meta.url);
const TITLE = 'Розыгрыш — 5 × наушники 🎁 抽奖活动 · プレゼント · 추첨 · مسابقة كبيرة';

// pdf.js draws the page onto a canvas, so the artifact shows the PDF as a reader would see it.
const VIEWER = `<!doctype html><meta charset="utf-8"><body style="margin:0;background:#888">
<canvas id="page"></canvas><script type="module">
import * as pdfjs from '/pdf.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
const name = new URLSearchParams(location.search).get('pdf');
const doc = await pdfjs.getDocument('/' + name + '.pdf').promise;
const page = await doc.getPage(1);
const viewport = page.getViewport({ scale: 1.6 });
const canvas = document.getElementById('page');
canvas.width = viewport.width;
canvas.height = viewport.height;
await page.render({ canvas, viewport }).promise;
document.body.dataset.pages = String(doc.numPages);
</script>`;

const hasPdftoppm = spawnSync('pdftoppm', ['-v']).status === 0;

/** Share of dark pixels in a binary PGM (P5) image. */
function inkOfPgm(pgm: Buffer): number {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  assert.ok(header, 'pdftoppm wrote a PGM');
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const value of pixels) if (value < 100) dark++;
  return dark / pixels.length;
}

describe('the PDF certificate', () => {
  let dir: string;
  let server: ServerProcess;
  let viewer: Server;
  let browser: Browser;
  const pdfs: Record<string, Buffer> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tyche-e2e-pdf-'));
    const env = { DATA_DIR: dir, TYCHE_SOURCES: 'system', LOG_LEVEL: 'warn' };
    server = await startServerProcess(env);
    const key = JSON.parse((await runTyche(['keys', 'create', '--json'], env)).stdout).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`${server.url}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      ).json();
    const giveaway = await post('/giveaways', { title: TITLE, winners_count: 5, draw_mode: 'instant' });
    const names = ['Алёна', '小明', 'さくら', '민준', 'محمد', 'Ζωή', 'דוד', '🦊fox'];
    await post(`/giveaways/${giveaway.public_id}/participants`, {
      participants: Array.from({ length: 120 }, (_, i) => ({
        telegram_id: 7_000_000 + i * 31,
        username: `${names[i % names.length]}_${i}`,
      })),
    });
    const certificateId = (await post(`/giveaways/${giveaway.public_id}/draw`, {})).certificate_id;
    const res = await fetch(`${server.url}/verify/${certificateId}.pdf`);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    pdfs.v1 = Buffer.from(await res.arrayBuffer());
    // A verifiable draw needs a drand round; its certificate is rendered here from a sample.
    pdfs.v2 = await renderCertificatePdf(
      sampleCertificateV2({
        title: TITLE,
        entrants: manyEntrants(40, (i) => `${names[i % names.length]}_${i}`),
      }),
      `${server.url}/verify/c_b1xZ0YouHddoaADs`,
      `${server.url}/docs/draw-algorithm`,
    );

    viewer = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const files: Record<string, [string, Buffer | string]> = {
        '/': ['text/html', VIEWER],
        '/pdf.mjs': ['text/javascript', readFileSync(new URL('pdf.min.mjs', PDFJS))],
        '/pdf.worker.mjs': ['text/javascript', readFileSync(new URL('pdf.worker.min.mjs', PDFJS))],
        '/v1.pdf': ['application/pdf', pdfs.v1],
        '/v2.pdf': ['application/pdf', pdfs.v2],
      };
      const file = files[path];
      response.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
      response.end(file?.[1] ?? 'not found');
    }).listen(0, '127.0.0.1');
    await once(viewer, 'listening');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    viewer?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ['v1', 'v2'] as const) {
    test(`the ${name} certificate renders as one page in a PDF reader; kept as an image`, async () => {
      const page = await browser.newPage({ viewport: { width: 960, height: 1350 } });
      await page.goto(`http://127.0.0.1:${(viewer.address() as AddressInfo).port}/?pdf=${name}`);
      await page.waitForSelector('body[data-pages]', { timeout: 30_000 });
      assert.equal(await page.getAttribute('body', 'data-pages'), '1');
      const inked = await page.evaluate(() => {
        const canvas = document.getElementById('page') as HTMLCanvasElement;
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] < 100) dark++;
        return dark / (data.length / 4);
      });
      assert.ok(inked > 0.01 && inked < 0.5, `share of dark pixels ${inked}`);
      await page.locator('#page').screenshot({ path: join(ARTIFACTS, `certificate-pdf-${name}.png`) });
      await page.close();
    });
  }

  test('the title in five scripts and emoji is drawn by the embedded fonts, never as boxes', async () => {
    for (const [name, bytes] of Object.entries(pdfs)) {
      writeFileSync(join(ARTIFACTS, `certificate-${name}.pdf`), bytes);
      const pdf = await readPdf(bytes);
      // The title wraps over lines; apart from where it breaks, it copies out as written.
      const squeeze = (text: string) => text.replace(/\s+/g, '');
      assert.ok(squeeze(pdf.text).includes(squeeze(TITLE)), `${name}: the title copies out as written`);
      const boxes = pdf.glyphs.filter(
        (g) => !/^\s*$/u.test(g.unicode) && !(g.code !== 0 && g.inFont && g.inked),
      );
      assert.deepEqual(
        boxes.map((g) => g.unicode),
        [],
        `${name}: glyphs without ink`,
      );
    }
  });

  test('a second renderer (poppler) draws the page too; kept as an image', {
    skip: !hasPdftoppm && 'pdftoppm (poppler-utils) is not installed',
  }, () => {
    for (const [name, bytes] of Object.entries(pdfs)) {
      const input = join(dir, `${name}.pdf`);
      writeFileSync(input, bytes);
      const gray = spawnSync('pdftoppm', ['-r', '60', '-gray', '-singlefile', input, join(dir, name)]);
      assert.equal(gray.status, 0, String(gray.stderr));
      const ink = inkOfPgm(readFileSync(join(dir, `${name}.pgm`)));
      assert.ok(ink > 0.01 && ink < 0.5, `${name}: share of dark pixels ${ink}`);
      const png = spawnSync('pdftoppm', [
        '-r',
        '110',
        '-png',
        '-singlefile',
        input,
        join(ARTIFACTS, `certificate-pdf-${name}-poppler`),
      ]);
      assert.equal(png.status, 0, String(png.stderr));
    }
  });
});
