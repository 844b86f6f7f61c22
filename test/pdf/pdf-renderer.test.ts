import assert from 'node:assert/strict';
import { afterEach, mock, test } from 'node:test';
import { type CertificateContent, contentV1 } from '../../src/pdf/certificate-content.ts';
import { PDF_WORKER_IDLE_MS, pdfWorkerRunning, renderInWorker } from '../../src/pdf/pdf-renderer.ts';
import { sampleCertificate } from '../helpers/certificates.ts';

const PAGE_URL = 'https://tyche.example/verify/c_b1xZ0YouHddoaADs';
const content = () => contentV1(sampleCertificate().certificate, PAGE_URL, 'https://tyche.example/docs');

afterEach(() => mock.timers.reset());

test('the worker starts with the first PDF, serves a burst, and ends once none is asked for', async () => {
  assert.equal(pdfWorkerRunning(), false);
  mock.timers.enable({ apis: ['setTimeout'] });
  const [first, second] = await Promise.all([
    renderInWorker(content(), PAGE_URL),
    renderInWorker(content(), PAGE_URL),
  ]);
  for (const pdf of [first, second]) {
    assert.ok(Buffer.isBuffer(pdf));
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  }
  assert.equal(pdfWorkerRunning(), true);
  mock.timers.tick(PDF_WORKER_IDLE_MS - 1);
  assert.equal(pdfWorkerRunning(), true);
  mock.timers.tick(1);
  assert.equal(pdfWorkerRunning(), false);
  // The next PDF starts another.
  const again = await renderInWorker(content(), PAGE_URL);
  assert.equal(again.subarray(0, 5).toString('latin1'), '%PDF-');
  assert.equal(pdfWorkerRunning(), true);
});

test('a page that cannot be laid out fails its own request, and the worker goes on with the next', async () => {
  const broken = { ...content(), sections: null } as unknown as CertificateContent;
  await assert.rejects(renderInWorker(broken, PAGE_URL), /^Error: the certificate PDF could not be made: /);
  const pdf = await renderInWorker(content(), PAGE_URL);
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
});
