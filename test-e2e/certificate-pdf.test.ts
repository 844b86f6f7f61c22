import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { runTyche } from '../test/helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import { ARTIFACTS, launchChromium } from './browser.ts';

const PDFJS = new URL('../node_modules/pdfjs-dist/build/', import.meta.url);

// pdf.js draws the page onto a canvas, so the artifact shows the PDF as a reader would see it.
const VIEWER = `<!doctype html><meta charset="utf-8"><body style="margin:0;background:#888">
<canvas id="page"></canvas><script type="module">
import * as pdfjs from '/pdf.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
const doc = await pdfjs.getDocument('/certificate.pdf').promise;
const page = await doc.getPage(1);
const viewport = page.getViewport({ scale: 1.6 });
const canvas = document.getElementById('page');
canvas.width = viewport.width;
canvas.height = viewport.height;
await page.render({ canvas, viewport }).promise;
document.body.dataset.pages = String(doc.numPages);
</script>`;

describe('the PDF certificate', () => {
  let dir: string;
  let server: ServerProcess;
  let viewer: Server;
  let browser: Browser;
  let pdf: Buffer;
  let certificateId: string;

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
    const giveaway = await post('/giveaways', {
      title: 'Розыгрыш — 5 × наушники для подписчиков',
      winners_count: 5,
    });
    await post(`/giveaways/${giveaway.public_id}/participants`, {
      participants: Array.from({ length: 120 }, (_, i) => ({
        telegram_id: 7_000_000 + i * 31,
        username: `subscriber_${i}`,
      })),
    });
    certificateId = (await post(`/giveaways/${giveaway.public_id}/draw`, {})).certificate_id;
    const res = await fetch(`${server.url}/verify/${certificateId}.pdf`);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    pdf = Buffer.from(await res.arrayBuffer());

    viewer = createServer((request, response) => {
      const files: Record<string, [string, Buffer | string]> = {
        '/': ['text/html', VIEWER],
        '/pdf.mjs': ['text/javascript', readFileSync(new URL('pdf.min.mjs', PDFJS))],
        '/pdf.worker.mjs': ['text/javascript', readFileSync(new URL('pdf.worker.min.mjs', PDFJS))],
        '/certificate.pdf': ['application/pdf', pdf],
      };
      const file = files[request.url ?? ''];
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

  test('renders as one page in a PDF reader; kept as an image', async () => {
    const page = await browser.newPage({ viewport: { width: 960, height: 1350 } });
    await page.goto(`http://127.0.0.1:${(viewer.address() as AddressInfo).port}/`);
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
    await page.locator('#page').screenshot({ path: join(ARTIFACTS, 'certificate-pdf.png') });
    await page.close();
  });
});
