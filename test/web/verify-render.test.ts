import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderCertificatePdf } from '../../src/pdf/certificate-pdf.ts';
import { sourceReferenceUrl } from '../../src/pdf/certificate-text.ts';
import { slugOf } from '../../src/web/algorithm-doc.ts';
import { prefersJson } from '../../src/web/verify.routes.ts';
import { renderCertificatePage } from '../../src/web/verify-page.ts';
import { sampleCertificate, tampered } from '../helpers/certificates.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const URLS = {
  page: 'https://tyche.example/verify/c_x',
  json: '/verify/c_x.json',
  pdf: '/verify/c_x.pdf',
  keys: '/.well-known/tyche-keys.json',
};

describe('certificate rendering', () => {
  test('public beacon references link to their public record; private ones do not', () => {
    const nist = renderCertificatePage(sampleCertificate({ vector: 'nist-beacon' }).certificate, URLS);
    assert.match(nist, /<a href="https:\/\/beacon\.nist\.gov\/beacon\/2\.0\/chain\/2\/pulse\/1234567">/);
    assert.match(nist, /<dt>Beacon value<\/dt><dd><code class="mono">adfdbc7a[0-9a-f]{120}<\/code>/);
    assert.match(nist, /<dt>System entropy<\/dt>/);
    assert.equal(
      sourceReferenceUrl('drand', '4242424'),
      'https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/4242424',
    );
    const anu = renderCertificatePage(
      sampleCertificate({ vector: 'thousand-participants' }).certificate,
      URLS,
    );
    assert.match(anu, /<code class="mono">anu:batch-1<\/code> <span class="muted">\(a private source/);
    assert.doesNotMatch(anu, /Beacon value/);
    for (const [source, reference] of [
      ['nist', 'javascript:alert(1)'],
      ['nist', 'https://evil.example/'],
      ['drand', '1 or 1'],
      ['anu', 'https://x'],
    ]) {
      assert.equal(sourceReferenceUrl(source, reference), undefined, reference);
    }
  });

  test('a winner without a username and an odd drawn_at still render', () => {
    const s = sampleCertificate({ usernames: () => null });
    const page = renderCertificatePage(
      tampered(s.certificate, (c) => {
        c.drawn_at = 'not a date';
      }),
      URLS,
    );
    // Named in words, never a bare dash.
    assert.match(page, /<td>\(no public name\)<\/td>/);
    assert.match(page, /<time datetime="not a date">not a date<\/time>/);
  });

  test('content negotiation prefers HTML unless JSON is asked for', () => {
    const cases: [string | undefined, boolean][] = [
      [undefined, false],
      ['*/*', false],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
      ['application/json', true],
      ['application/json, text/plain, */*', true],
      ['text/html;q=0.5, application/json', true],
      ['application/json;q=0.5, text/html', false],
      ['application/json;q=0', false],
      ['application/*', true],
    ];
    for (const [accept, json] of cases) assert.equal(prefersJson(accept), json, String(accept));
  });

  test('the PDF stays one page with 1000 winners and a long non-Latin title', async () => {
    const s = sampleCertificate({
      vector: 'thousand-participants',
      title: `Розыгрыш ${'очень длинное название '.repeat(12)}`,
    });
    const many = tampered(s.certificate, (c) => {
      c.winners = Array.from({ length: 1000 }, (_, i) => ({
        position: i + 1,
        index: i,
        telegram_id: 10_000 + i,
        username: `winner${i}`,
      }));
    });
    const { pages, text } = await pdfText(
      await renderCertificatePdf(many, URLS.page, 'https://tyche.example/docs/draw-algorithm'),
    );
    assert.equal(pages, 1);
    assert.match(text[0], /c_thousandpartici/);
    assert.match(text[0], /and \d+ more winners: see https:\/\/tyche\.example\/verify\/c_x/);
    assert.match(text[0], /@winner0/);
  });

  test('heading anchors follow GitHub: the document links #7-test-vectors', () => {
    assert.equal(slugOf('7. Test vectors'), '7-test-vectors');
    assert.equal(slugOf('V2 `more-winners-than-participants`'), 'v2-more-winners-than-participants');
    assert.equal(slugOf('The draw algorithm `tyche-draw-v1`'), 'the-draw-algorithm-tyche-draw-v1');
  });
});
