import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedOf } from '../src/log/log-key.ts';
import { parseNote, signNote, verifierKey } from '../src/proof/note.ts';
import type { CertificateV2 } from '../src/proof/v2-types.ts';
import { createSigningKey } from '../src/signing/certificate-crypto.ts';
import { ARTIFACTS, DESKTOP, launchChromium, MOBILE, newPageWatch, openWatched } from './browser.ts';
import { startVerifiableServer, TITLE, type VerifiableServer } from './verifiable-server.ts';

const watch = newPageWatch();

describe('the v2 certificate page and the /g page in a real browser', () => {
  let s: VerifiableServer;
  let browser: Browser;
  let cert: CertificateV2;
  let verifyUrl: string;
  const { requests, consoleErrors } = watch;

  before(async () => {
    s = await startVerifiableServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  const open = (viewport: typeof MOBILE, javaScriptEnabled = true) =>
    openWatched(browser, watch, viewport, { javaScriptEnabled });

  const noOverflow = async (page: Page) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  };

  async function verifyInBrowser(page: Page) {
    await page.getByRole('button', { name: 'Verify this draw' }).click();
    await page.locator('#verify-status.verdict').waitFor({ timeout: 30_000 });
    return {
      status: await page.locator('#verify-status').innerText(),
      passed: await page.locator('#verify-checks li.check.ok strong').allInnerTexts(),
      failed: await page.locator('#verify-checks li.check.bad strong').allInnerTexts(),
      warned: await page.locator('#verify-checks li.check.warn').allInnerTexts(),
    };
  }

  test('the giveaway page reads without JavaScript while open and once sealed', async () => {
    const g = `${s.server.url}/g/${s.publicId}`;
    const { context, page } = await open(MOBILE, false);
    await page.goto(g);
    assert.equal(await page.locator('h1').innerText(), TITLE);
    assert.equal(await page.locator('[data-status]').innerText(), 'Open for entries');
    await noOverflow(page);
    await page.screenshot({ path: join(ARTIFACTS, 'giveaway-page-mobile-open.png'), fullPage: true });
    const seal = await s.seal({ holdRound: true });
    await page.goto(g);
    assert.equal(await page.locator('[data-committed-round]').innerText(), String(seal.beacon.round));
    assert.ok((await page.locator('#seal').innerText()).includes(seal.entrants.root));
    await noOverflow(page);
    await page.screenshot({ path: join(ARTIFACTS, 'giveaway-page-mobile-sealed.png'), fullPage: true });
    await context.close();
    const desktop = await open(DESKTOP, false);
    await desktop.page.goto(g);
    await desktop.page.screenshot({
      path: join(ARTIFACTS, 'giveaway-page-desktop-sealed.png'),
      fullPage: true,
    });
    await desktop.context.close();
  });

  test('once drawn, the giveaway page links the certificate, which reads without JavaScript', async () => {
    cert = await s.release();
    const { context, page } = await open(MOBILE, false);
    await page.goto(`${s.server.url}/g/${s.publicId}`);
    await page.locator('[data-certificate-link]').click();
    verifyUrl = page.url();
    assert.equal(verifyUrl, `${s.server.url}/verify/${cert.certificate_id}`);
    assert.equal(await page.locator('h1').innerText(), TITLE);
    assert.equal(await page.locator('[data-winner-position]').count(), 2);
    assert.equal(await page.locator('[data-reserve-position]').count(), 2);
    assert.equal(await page.getByRole('button', { name: 'Verify this draw' }).isVisible(), false);
    for (const heading of [
      'Winners',
      'The sealed list',
      'The drand round',
      'The draw',
      'Certificate signature',
    ]) {
      assert.ok(await page.getByRole('region', { name: heading, exact: true }).isVisible(), heading);
    }
    await page.locator('details[data-proof-position="1"] summary').click();
    assert.ok(
      (await page.locator('details[data-proof-position="1"]').innerText()).includes(cert.winners[0].proof[0]),
    );
    await noOverflow(page);
    await page.screenshot({ path: join(ARTIFACTS, 'verify-v2-page-mobile-no-js.png'), fullPage: true });
    await context.close();
  });

  test('"Verify this draw" passes every check, with the round read from the relay by the browser', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [MOBILE, 'mobile'],
    ] as const) {
      const { context, page } = await open(viewport);
      await page.goto(verifyUrl);
      const result = await verifyInBrowser(page);
      assert.deepEqual(result.failed, []);
      // No witness here: the seal's time is the operator's word, a warning and not a pass.
      assert.match(result.status, /^Valid draw: no check failed in your browser\./);
      assert.match(result.status, /Warning: Seal witnesses: seal time attested by the operator only\.$/);
      assert.equal(result.warned.length, 1);
      assert.match(
        result.warned[0],
        /^!\s*Seal witnesses: warning\s+seal time attested by the operator only$/,
      );
      for (const label of [
        'This page shows the certificate',
        'Seal signature',
        'Committed round',
        'drand round signature',
        'drand relay record',
        'Seed',
        'Winners',
        'Reserves',
        'Inclusion proofs',
        'Certificate signature',
        'Log checkpoint',
        'Log inclusion (seal)',
        'Signing key in the log (seal)',
        'Log inclusion (certificate)',
        'Signing key in the log (certificate)',
      ]) {
        assert.ok(result.passed.includes(`${label}: passed`), label);
      }
      await noOverflow(page);
      await page.screenshot({ path: join(ARTIFACTS, `verify-v2-page-${name}-valid.png`), fullPage: true });
      await context.close();
    }
    const relay = `${s.drand.url}/${s.drand.chainHash}`;
    assert.ok(requests.some((r) => r.url === `${relay}/public/${cert.beacon.round}`));
    assert.ok(requests.some((r) => r.url === `${relay}/info`));
  });

  test('a relay that disagrees with the certificate is a named failure', async () => {
    const { context, page } = await open(DESKTOP);
    await page.route(`${s.drand.url}/**/public/*`, (route) =>
      route.fulfill({
        json: { ...s.drand.beacon(cert.beacon.round - 1), round: cert.beacon.round },
        headers: { 'access-control-allow-origin': '*' },
      }),
    );
    await page.goto(verifyUrl);
    const result = await verifyInBrowser(page);
    assert.deepEqual(result.failed, ['drand relay record: FAILED']);
    assert.match(result.status, /^Invalid: 1 of \d+ checks failed/);
    await context.close();
  });

  test('a relay that cannot be reached is noted, not counted as a failure', async () => {
    const { context, page } = await open(MOBILE);
    await page.route(`${s.drand.url}/**/public/*`, (route) => route.abort('connectionrefused'));
    await page.goto(verifyUrl);
    const result = await verifyInBrowser(page);
    assert.deepEqual(result.failed, []);
    const notes = await page.locator('#verify-checks li.check.note').allInnerTexts();
    assert.ok(
      notes.some((n) => /^•\s+drand relay record\s+not compared: could not read /.test(n)),
      notes.join('\n'),
    );
    await context.close();
  });

  test('a certificate altered on the way names each broken check', async () => {
    const { context, page } = await open(MOBILE);
    await page.route(`**/verify/${cert.certificate_id}.json`, async (route) => {
      const altered = (await (await route.fetch()).json()) as CertificateV2;
      // Another entrant takes the first prize: the leaf no longer matches, nor does the signature.
      altered.winners[0].telegram_id += 1;
      await route.fulfill({ json: altered });
    });
    await page.goto(verifyUrl);
    const result = await verifyInBrowser(page);
    assert.deepEqual(result.failed, [
      'This page shows the certificate: FAILED',
      'Leaf hashes: FAILED',
      'Certificate hash: FAILED',
      'Certificate signature: FAILED',
      'Log inclusion (certificate): FAILED',
    ]);
    await page.screenshot({ path: join(ARTIFACTS, 'verify-v2-page-mobile-tampered.png'), fullPage: true });
    await context.close();
  });

  test('the log: a forged checkpoint and a look-alike log key are refused, a later visit checks consistency', async () => {
    const { context, page } = await open(DESKTOP);
    await page.goto(verifyUrl);
    const first = await verifyInBrowser(page);
    assert.deepEqual(first.failed, []);
    const pins = await page.evaluate(() =>
      Object.keys(localStorage).filter((k) => k.startsWith('tyche-log-pin:')),
    );
    assert.equal(pins.length, 1);
    await page.reload();
    const again = await verifyInBrowser(page);
    assert.ok(again.passed.includes('Log consistency: passed'), again.passed.join('\n'));

    // The same checkpoint text, signed by a key that is not the log's.
    const keys = await (await fetch(`${s.server.url}/.well-known/tyche-keys.json`)).json();
    const stranger = createSigningKey();
    await page.route('**/log/checkpoint', async (route) => {
      const text = parseNote(await (await route.fetch()).text()).text;
      await route.fulfill({
        body: signNote(text, keys.log.origin, seedOf(stranger)),
        contentType: 'text/plain',
      });
    });
    await page.reload();
    const forged = await verifyInBrowser(page);
    assert.deepEqual(forged.failed, ['Log checkpoint: FAILED']);
    await page.unroute('**/log/checkpoint');

    // A server showing another log key than the one this browser pinned.
    await page.route('**/.well-known/tyche-keys.json', async (route) => {
      const doc = await (await route.fetch()).json();
      doc.log.key = verifierKey(doc.log.origin, stranger.publicKeyRaw);
      await route.fulfill({ json: doc });
    });
    await page.reload();
    const lookAlike = await verifyInBrowser(page);
    assert.deepEqual(lookAlike.failed, ['Log key: FAILED']);
    await context.close();
  });

  test('no request carried credentials or left the server and the relay; no script or CSP error', () => {
    assert.ok(requests.length > 10);
    for (const r of requests) {
      assert.equal(r.authorization, undefined, r.url);
      assert.ok(r.url.startsWith(`${s.server.url}/`) || r.url.startsWith(`${s.drand.url}/`), r.url);
    }
    assert.deepEqual(
      consoleErrors.filter((e) => !/404|ERR_CONNECTION_REFUSED/.test(e)),
      [],
    );
  });
});
