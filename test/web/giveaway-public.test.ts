import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createConfig } from '../../src/config.ts';
import { escapeHtml, PAGE_CSP } from '../../src/edge/html.ts';
import type { PublicGiveaway } from '../../src/giveaways/results/public-giveaway.ts';
import { buildApp } from '../../src/http/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { fromHex } from '../../src/proof/hex.ts';
import { verifyInclusion } from '../../src/proof/merkle.ts';
import { OPERATOR_TRUST_LABEL } from '../../src/proof/report.ts';
import { objectHashProblem, objectSignatureProblem } from '../../src/proof/signed-object.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import { createServices } from '../../src/services.ts';
import { BROWSER_SCRIPTS, PAGE_SCRIPT_URL } from '../../src/web/browser-modules.ts';
import { RECEIPT_SCRIPT_URL } from '../../src/web/giveaway-public.routes.ts';
import { sampleCertificate } from '../helpers/certificates.ts';
import { storeTargets } from '../helpers/stores.ts';
import { buildV2Fixture, fakeLookup, publicViewOf, sha256 } from '../helpers/v2-fixtures.ts';

const RELAY = 'http://127.0.0.1:9/relay';
const EVIL_TITLE = `<script>alert("t")</script> & 'quoted' "title"`;
const EVIL_DESCRIPTION = `Win <img src=x onerror=alert(1)>\nsecond line </p><script>x()</script>`;
const EVIL_NAME = (i: number) => `<b onmouseover=alert(${i})>"'`;

const fixture = buildV2Fixture({ title: EVIL_TITLE, count: 9, winners: 2, reserves: 2, username: EVIL_NAME });
const ids = {
  active: 'Act1veGiveaw',
  sealed: 'Sea1edGiveaw',
  completed: fixture.publicId,
  instant: 'Inst4ntGivea',
};
const views: PublicGiveaway[] = [
  publicViewOf(fixture, 'active', { public_id: ids.active, seal: null, description: EVIL_DESCRIPTION }),
  publicViewOf(fixture, 'sealed', {
    public_id: ids.sealed,
    conditions: [{ channel: '@sponsor<x>' }],
    excluded: [{ reason: 'left_required_channel', count: 3 }],
  }),
  publicViewOf(fixture, 'completed', { drand: { chain_hash: fixture.seal.beacon.chain_hash, relay: RELAY } }),
  publicViewOf(fixture, 'completed', {
    public_id: ids.instant,
    draw_mode: 'instant',
    algorithm: 'tyche-draw-v1',
    seal: null,
    certificate_id: 'c_instantinstant1',
    verify_url: 'http://127.0.0.1:8080/verify/c_instantinstant1',
  }),
];
const v1 = sampleCertificate({ title: EVIL_TITLE });

/** A real app (real store, services, error handling) whose giveaway lookups serve the fixture. */
async function startApp(): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const target = (await storeTargets()).find((t) => t.dialect === 'sqlite')!;
  const opened = await target.open();
  const config = createConfig({
    ...opened.env,
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
    TYCHE_SOURCES: 'system',
    DRAND_URL: RELAY,
  });
  const metrics = createMetrics();
  const services = createServices(config, opened.store, { registry: metrics.registry });
  const certificates = new Map<string, unknown>([
    [fixture.certificate.certificate_id, fixture.certificate],
    [v1.certificate.certificate_id, v1.certificate],
  ]);
  const giveaways = {
    ...services.giveaways,
    public: fakeLookup(views, fixture),
    certificates: { get: async (id: string) => certificates.get(id) as never },
  };
  const app = await buildApp({ config, store: opened.store, metrics, ...services, giveaways });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await opened.cleanup();
    },
  };
}

const hostileFree = (body: string) => {
  // Text is escaped, so every `<` opens a real tag: none may carry an event handler or inline script.
  assert.doesNotMatch(body, /<[^>]*\son[a-z]+=/i);
  assert.doesNotMatch(body, /<script>/);
  assert.ok(!body.includes('<img'));
};

describe('public giveaway pages and data', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  before(async () => {
    ({ app, close } = await startApp());
  });
  after(() => close?.());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });
  const leaf = fixture.sorted[4];

  test('an open giveaway: page with only the common script, every user text escaped, strict CSP, request id', async () => {
    const res = await get(`/g/${ids.active}`, { 'x-request-id': 'req-open-page-1' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
    assert.equal(res.headers['x-request-id'], 'req-open-page-1');
    assert.equal(res.headers['content-security-policy'], PAGE_CSP);
    assert.equal(res.headers.vary, 'accept, accept-language');
    // Only the optional script every page has (local times); the page reads the same without it.
    assert.deepEqual(res.body.match(/<script\b[^>]*>/g), [`<script type="module" src="${PAGE_SCRIPT_URL}">`]);
    assert.ok(res.body.includes(`<h1>${escapeHtml(EVIL_TITLE)}</h1>`));
    assert.ok(res.body.includes(escapeHtml(EVIL_DESCRIPTION)));
    hostileFree(res.body);
    assert.match(res.body, /data-status="active">Open for entries</);
    assert.match(res.body, /<dd data-entrants-count>9<\/dd>/);
    assert.match(res.body, /2025-01-02 12:00:00 UTC/);
    assert.match(res.body, /then 2 reserves in order/);
    assert.ok(!res.body.includes('id="seal"'));
    assert.ok(res.body.includes(`href="/g/${ids.active}/receipt"`));
  });

  test('a sealed giveaway shows its seal in full, before the round exists', async () => {
    const res = await get(`/g/${ids.sealed}`);
    assert.equal(res.statusCode, 200);
    const s = fixture.seal;
    for (const value of [
      s.seal_id,
      s.entrants.root,
      s.hash,
      s.signature.value,
      s.signature.kid,
      s.beacon.after_randomness,
      s.giveaway.owner,
      `data-committed-round>${s.beacon.round}<`,
      `datetime="${s.beacon.round_at}"`,
      `datetime="${s.sealed_at}"`,
      'not logged yet',
      `/${s.beacon.chain_hash}/public/${s.beacon.round}`,
    ]) {
      assert.ok(res.body.includes(String(value)), `page lacks ${value}`);
    }
    assert.match(res.body, /data-status="sealed"/);
    assert.match(res.body, /The draw is coming/);
    assert.match(res.body, new RegExp(`id="draw-countdown" data-round-at="${s.beacon.round_at}"`));
    // Channel conditions, and how many entrants the seal left out and why.
    assert.match(res.body, /data-conditions>@sponsor&lt;x&gt;: checked at joining and again before the seal/);
    assert.match(res.body, /data-excluded="left_required_channel">3 entrants had left a required channel/);
    const json = await get(`/g/${ids.sealed}.json`);
    assert.deepEqual(json.json().excluded, [{ reason: 'left_required_channel', count: 3 }]);
    assert.ok(!res.body.includes('data-certificate-link'));
    hostileFree(res.body);
  });

  test('a drawn giveaway links its certificate; an instant one says the operator must be trusted', async () => {
    const drawn = await get(`/g/${ids.completed}`);
    assert.ok(
      drawn.body.includes(
        `<a class="button" href="http://127.0.0.1:8080/verify/${fixture.certificate.certificate_id}" data-certificate-link>`,
      ),
    );
    assert.ok(!drawn.body.includes(escapeHtml(OPERATOR_TRUST_LABEL)));
    const instant = await get(`/g/${ids.instant}`);
    assert.equal(instant.statusCode, 200);
    assert.ok(instant.body.includes(escapeHtml(OPERATOR_TRUST_LABEL)));
    assert.ok(!instant.body.includes('receipt-heading'));
  });

  test('JSON by suffix or by Accept: the public giveaway, readable from any origin', async () => {
    for (const view of views) {
      const bySuffix = await get(`/g/${view.public_id}.json`);
      assert.equal(bySuffix.statusCode, 200);
      assert.match(String(bySuffix.headers['content-type']), /^application\/json/);
      assert.equal(bySuffix.headers['access-control-allow-origin'], '*');
      assert.ok(bySuffix.headers['x-request-id']);
      assert.deepEqual(bySuffix.json(), view);
      const byAccept = await get(`/g/${view.public_id}`, { accept: 'application/json' });
      assert.equal(byAccept.body, bySuffix.body);
      assert.equal(byAccept.headers.vary, 'accept, accept-language');
    }
  });

  test('unknown giveaways: a 404 page, or a problem for JSON', async () => {
    for (const id of ['NoSuchGiveaw', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'x'.repeat(300)]) {
      const page = await get(`/g/${id}`);
      assert.equal(page.statusCode, 404, id);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['content-security-policy'], PAGE_CSP);
      assert.match(page.body, /Giveaway not found/);
      hostileFree(page.body);
      for (const json of [
        await get(`/g/${id}.json`),
        await get(`/g/${id}`, { accept: 'application/json' }),
      ]) {
        assert.equal(json.statusCode, 404);
        assert.match(String(json.headers['content-type']), /^application\/problem\+json/);
        assert.equal(json.json().code, 'not_found');
        assert.equal(json.json().request_id, json.headers['x-request-id']);
      }
      assert.equal((await get(`/g/${id}/receipt`)).statusCode, 404);
    }
  });

  test('proofs: the audit path that leads to the sealed root; 409 before the seal, 404 off the list', async () => {
    const res = await get(`/g/${ids.sealed}/proof/${leaf}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    const proof = res.json();
    assert.deepEqual(Object.keys(proof).sort(), ['count', 'index', 'proof', 'root', 'seal_hash', 'seal_id']);
    assert.equal(proof.seal_id, fixture.seal.seal_id);
    assert.equal(proof.seal_hash, fixture.seal.hash);
    assert.equal(proof.index, 4);
    assert.equal(proof.count, 9);
    assert.equal(proof.root, fixture.seal.entrants.root);
    assert.ok(
      verifyInclusion(
        fromHex(leaf),
        proof.index,
        proof.count,
        proof.proof.map(fromHex),
        fromHex(proof.root),
        sha256,
      ),
    );
    // Upper-case hex names the same leaf.
    assert.deepEqual((await get(`/g/${ids.sealed}/proof/${leaf.toUpperCase()}`)).json(), proof);

    const early = await get(`/g/${ids.active}/proof/${leaf}`);
    assert.equal(early.statusCode, 409);
    assert.match(String(early.headers['content-type']), /^application\/problem\+json/);
    assert.equal(early.json().code, 'not_sealed');

    for (const [url, detail] of [
      [`/g/${ids.sealed}/proof/${'0'.repeat(64)}`, /leaf hash/],
      [`/g/${ids.sealed}/proof/not-hex`, /leaf hash/],
      [`/g/NoSuchGiveaw/proof/${leaf}`, /No giveaway/],
    ] as const) {
      const missing = await get(url);
      assert.equal(missing.statusCode, 404, url);
      assert.equal(missing.json().code, 'not_found');
      assert.match(missing.json().detail, detail);
    }
  });

  test('tickets: the signed entry ticket, before and after the seal', async () => {
    const keys = (await get('/.well-known/tyche-keys.json')).json();
    assert.ok(keys.keys.length > 0);
    for (const id of [ids.active, ids.sealed]) {
      const res = await get(`/g/${id}/ticket/${leaf}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      const ticket = res.json();
      assert.equal(ticket.type, 'tyche-ticket-v2');
      assert.equal(ticket.leaf_hash, leaf);
      assert.equal(objectHashProblem(ticket, sha256), null);
      assert.equal(objectSignatureProblem(ticket, fixture.keys), null);
    }
    const missing = await get(`/g/${ids.sealed}/ticket/${'f'.repeat(64)}`);
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
  });

  test('the receipt page: a frame for the script, which may fetch this origin and the relay only', async () => {
    const res = await get(`/g/${ids.completed}/receipt`);
    assert.equal(res.statusCode, 200);
    const csp = String(res.headers['content-security-policy']);
    assert.equal(csp, PAGE_CSP.replace("connect-src 'self'", "connect-src 'self' http://127.0.0.1:9"));
    assert.match(csp, /script-src 'self';/);
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.deepEqual(res.body.match(/<script\b[^>]*>/g), [
      `<script type="module" src="${RECEIPT_SCRIPT_URL}">`,
      `<script type="module" src="${PAGE_SCRIPT_URL}">`,
      // The script's words in the page's language: data, never run.
      '<script type="application/json" id="page-text">',
    ]);
    assert.ok(BROWSER_SCRIPTS.some((script) => script.url === RECEIPT_SCRIPT_URL));
    assert.match(res.body, /<noscript>/);
    assert.match(res.body, /data-giveaway-url="\/g\/Fx7HkQ2xN4ab.json"/);
    assert.match(res.body, /<button type="button" id="receipt-save" hidden>Save receipt<\/button>/);
    assert.ok(res.body.includes(escapeHtml(EVIL_TITLE)));
    hostileFree(res.body);
    const instant = await get(`/g/${ids.instant}/receipt`);
    assert.ok(instant.body.includes(escapeHtml(OPERATOR_TRUST_LABEL)));
  });

  test('a v2 certificate page shows the seal, the round, the seed and every proof', async () => {
    const cert = fixture.certificate;
    const res = await get(`/verify/${cert.certificate_id}`);
    assert.equal(res.statusCode, 200);
    assert.equal(
      res.headers['content-security-policy'],
      PAGE_CSP.replace("connect-src 'self'", "connect-src 'self' http://127.0.0.1:9"),
    );
    const s = cert.seal;
    for (const value of [
      s.seal_id,
      s.entrants.root,
      s.hash,
      s.signature.value,
      `datetime="${s.sealed_at}"`,
      `datetime="${s.beacon.round_at}"`,
      cert.beacon.randomness,
      cert.beacon.signature,
      cert.seed,
      cert.hash,
      cert.signature.value,
      `data-relay="${RELAY}"`,
      `${RELAY}/${cert.beacon.chain_hash}/public/${cert.beacon.round}`,
      'League of Entropy quicknet',
      '2 of 9 entrants, in draw order',
      '2 reserves, in order, after the winners',
    ]) {
      assert.ok(res.body.includes(String(value)), `page lacks ${value}`);
    }
    for (const e of cert.winners) {
      assert.ok(
        res.body.includes(`data-winner-position="${e.position}" data-telegram-id="${e.telegram_id}"`),
      );
    }
    for (const e of cert.reserves) {
      assert.ok(
        res.body.includes(`data-reserve-position="${e.position}" data-telegram-id="${e.telegram_id}"`),
      );
    }
    for (const e of [...cert.winners, ...cert.reserves]) {
      assert.ok(res.body.includes(e.leaf_hash) && res.body.includes(e.salt));
      for (const p of e.proof) assert.ok(res.body.includes(`<li>${p}</li>`));
      assert.ok(res.body.includes(escapeHtml(`@${e.username}`)));
    }
    assert.ok(res.body.includes(escapeHtml(EVIL_TITLE)));
    hostileFree(res.body);
    assert.ok(!res.body.includes(escapeHtml(OPERATOR_TRUST_LABEL)));
    assert.match(res.body, /<button type="button" id="verify-button" hidden>Verify this draw<\/button>/);
    const json = (await get(`/verify/${cert.certificate_id}.json`)).json();
    const report = await verifyCertificate({ certificate: json, keys: fixture.keys, sha256 });
    assert.deepEqual(
      report.checks.filter((c) => !c.ok),
      [],
    );
    assert.equal(report.trust, 'public');
  });

  test('a v1 certificate page says the operator must be trusted and keeps the plain CSP', async () => {
    const res = await get(`/verify/${v1.certificate.certificate_id}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-security-policy'], PAGE_CSP);
    assert.match(res.body, /data-trust="operator"/);
    assert.ok(res.body.split(escapeHtml(OPERATOR_TRUST_LABEL)).length >= 3);
    hostileFree(res.body);
  });
});
