import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PAGE_CSP } from '../../src/edge/html.ts';
import { sha256 } from '../../src/giveaways/draw/certificate.ts';
import * as proof from '../../src/proof/verifier.ts';
import { addParticipants, createGiveaway, draw } from '../giveaways/giveaway-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const EVIL_TITLE = `<script>alert("t")</script> & 'quoted' "title"`;
const EVIL_NAME = `<img src=x onerror=alert(1)>"'`;

describe('public verification pages', () => {
  let t: TestApp;
  let certificateId: string;
  let verifyUrl: string;

  before(async () => {
    t = await startTestApp();
    const key = await t.key();
    const publicId = await createGiveaway(t, key, { title: EVIL_TITLE, winners_count: 3 });
    const people = Array.from({ length: 5 }, (_, i) => ({
      telegram_id: 100 + i,
      username: `${EVIL_NAME}${i}`,
    }));
    await addParticipants(t, key, publicId, people);
    const res = await draw(t, key, publicId);
    assert.equal(res.statusCode, 200, res.body);
    ({ certificate_id: certificateId, verify_url: verifyUrl } = res.json());
  });
  after(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const certificate = async () => (await get(`/verify/${certificateId}.json`)).json();

  test('the page shows every part of the certificate, hashes and seed in full', async () => {
    const res = await get(`/verify/${certificateId}`, {
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
    assert.ok(res.headers['x-request-id']);
    const cert = await certificate();
    assert.equal(verifyUrl, `http://127.0.0.1:8080/verify/${certificateId}`);
    for (const value of [
      cert.certificate_id,
      cert.public_id,
      cert.participants_hash,
      cert.seed,
      cert.hash,
      cert.signature.value,
      cert.signature.kid,
      cert.randomness.bytes,
      cert.randomness.request_id,
      cert.randomness.source_reference,
      cert.drawn_at,
      'tyche-draw-v1',
      '3 of 5 participants',
    ]) {
      assert.ok(res.body.includes(String(value)), `page lacks ${value}`);
    }
    assert.match(res.body, /<html lang="en">/);
    assert.match(res.body, /<meta name="viewport"/);
    assert.match(res.body, /<a href="\/docs\/draw-algorithm">tyche-draw-v1<\/a>/);
    assert.match(res.body, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    assert.match(res.body, /<h2 id="winners-heading">Winners<\/h2>/);
    for (const w of cert.winners) {
      assert.ok(
        res.body.includes(`data-winner-position="${w.position}" data-telegram-id="${w.telegram_id}"`),
      );
    }
    assert.equal(cert.winners.length, 3);
    assert.match(res.body, /<button type="button" id="verify-button" hidden>Verify this draw<\/button>/);
    assert.match(res.body, /aria-live="polite"/);
  });

  test('user-supplied text is escaped everywhere; no inline script; strict CSP', async () => {
    const res = await get(`/verify/${certificateId}`);
    assert.equal(res.headers['content-security-policy'], PAGE_CSP);
    assert.match(PAGE_CSP, /script-src 'self';/);
    assert.ok(!res.body.includes('<script>alert'));
    assert.ok(!res.body.includes('<img src=x'));
    assert.ok(
      res.body.includes(
        '&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &quot;title&quot;',
      ),
    );
    assert.ok(res.body.includes('@&lt;img src=x onerror=alert(1)&gt;&quot;&#39;'));
    const scripts = res.body.match(/<script\b[^>]*>/g) ?? [];
    assert.deepEqual(scripts, [
      '<script type="module" src="/assets/js/verify/verify-button.js">',
      '<script type="module" src="/assets/js/page.js">',
      // The button's words in the page's language: data, never run.
      '<script type="application/json" id="page-text">',
    ]);
    // Text is escaped, so every `<` opens a real tag: none may carry an event handler.
    assert.doesNotMatch(res.body, /<[^>]*\son[a-z]+=/i);
  });

  test('JSON by suffix or by Accept, byte for byte the sealed certificate', async () => {
    const bySuffix = await get(`/verify/${certificateId}.json`);
    assert.equal(bySuffix.statusCode, 200);
    assert.match(String(bySuffix.headers['content-type']), /^application\/json/);
    assert.equal(bySuffix.headers['access-control-allow-origin'], '*');
    const byAccept = await get(`/verify/${certificateId}`, { accept: 'application/json' });
    assert.match(String(byAccept.headers['content-type']), /^application\/json/);
    assert.equal(byAccept.headers.vary, 'accept, accept-language');
    assert.equal(byAccept.body, bySuffix.body);
    const cert = bySuffix.json();
    assert.equal(cert.title, EVIL_TITLE);
    const keys = (await get('/.well-known/tyche-keys.json')).json();
    assert.equal((await proof.verifyCertificate({ certificate: cert, keys, sha256 })).valid, true);
  });

  test('unknown ids: an HTML 404 page, or a problem for JSON', async () => {
    for (const id of ['c_doesNotExist', 'x'.repeat(90), '%3Cscript%3E']) {
      const page = await get(`/verify/${id}`);
      assert.equal(page.statusCode, 404, id);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['content-security-policy'], PAGE_CSP);
      assert.match(page.body, /Certificate not found/);
      assert.ok(!page.body.includes('<script>'));
      const json = await get(`/verify/${id}.json`);
      assert.equal(json.statusCode, 404);
      assert.match(String(json.headers['content-type']), /^application\/problem\+json/);
      assert.equal(json.json().code, 'not_found');
      const negotiated = await get(`/verify/${id}`, { accept: 'application/json' });
      assert.equal(negotiated.json().status, 404);
      assert.equal((await get(`/verify/${id}.pdf`)).statusCode, 404);
    }
  });

  test('the PDF is one parseable page carrying the ids, hashes, source and winners', async () => {
    const res = await get(`/verify/${certificateId}.pdf`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(
      String(res.headers['content-disposition']),
      new RegExp(`filename="tyche-certificate-${certificateId}.pdf"`),
    );
    const { pages, text } = await pdfText(res.rawPayload);
    assert.equal(pages, 1);
    const cert = await certificate();
    for (const value of [
      cert.certificate_id,
      cert.public_id,
      cert.participants_hash,
      cert.seed,
      cert.hash,
      verifyUrl,
      'tyche-draw-v1',
      'system',
    ]) {
      assert.ok(text[0].includes(value), `PDF lacks ${value}`);
    }
    for (const w of cert.winners) assert.ok(text[0].includes(String(w.telegram_id)));
  });

  test('JSON and PDF are revalidated, not immutable (timestamps and amendments arrive later): an ETag, 304 on revalidation, rendered once', async () => {
    for (const suffix of ['json', 'pdf']) {
      const first = await get(`/verify/${certificateId}.${suffix}`);
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['cache-control'], 'public, max-age=300, must-revalidate');
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]{43}"$/);
      const again = await get(`/verify/${certificateId}.${suffix}`);
      assert.equal(again.headers.etag, etag);
      assert.deepEqual(again.rawPayload, first.rawPayload);
      const revalidated = await get(`/verify/${certificateId}.${suffix}`, {
        'if-none-match': `W/${etag}, "other"`,
      });
      assert.equal(revalidated.statusCode, 304);
      assert.equal(revalidated.rawPayload.length, 0);
      const changed = await get(`/verify/${certificateId}.${suffix}`, { 'if-none-match': '"other"' });
      assert.equal(changed.statusCode, 200);
    }
    // Eight clients at once share one rendering: every answer is the same bytes.
    const burst = await Promise.all(Array.from({ length: 8 }, () => get(`/verify/${certificateId}.pdf`)));
    assert.equal(new Set(burst.map((r) => r.headers.etag)).size, 1);
  });

  test('the algorithm specification is rendered on the server, with working anchors', async () => {
    const res = await get('/docs/draw-algorithm');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-security-policy'], PAGE_CSP);
    assert.match(res.body, /<h1 id="the-draw-algorithm-tyche-draw-v1">/);
    assert.match(res.body, /<h2 id="7-test-vectors">/);
    assert.match(res.body, /<a href="#7-test-vectors">/);
    assert.match(res.body, /<table>/);
    assert.doesNotMatch(res.body, /<script/);
  });

  test('a certificate altered in the store is served as altered, never from a cached rendering', async () => {
    const before = await get(`/verify/${certificateId}.pdf`);
    const json = await get(`/verify/${certificateId}.json`);
    const altered = { ...json.json(), drawn_at: '2000-01-01T00:00:00.000Z' };
    await t.store.db
      .updateTable('certificates')
      .set({ body: JSON.stringify(altered) })
      .where('id', '=', certificateId)
      .execute();
    const after = await get(`/verify/${certificateId}.pdf`);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.equal((await get(`/verify/${certificateId}.json`)).json().drawn_at, '2000-01-01T00:00:00.000Z');
  });
});
