import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedOf } from '../src/log/log-key.ts';
import { parseNote, signNote, verifierKey } from '../src/proof/note.ts';
import type { CertificateV2 } from '../src/proof/v2-types.ts';
import { createSigningKey } from '../src/signing/certificate-crypto.ts';
import {
  ARTIFACTS,
  DESKTOP,
  launchChromium,
  MOBILE,
  newPageWatch,
  openWatched,
  verifyThisDraw,
} from './browser.ts';
import { startVerifiableServer, TITLE, type VerifiableServer } from './verifiable-server.ts';

const watch = newPageWatch();

describe('the v2 certificate page and the /g page in a real browser', () => {
  let s: VerifiableServer;
  let browser: Browser;
  let cert: CertificateV2;
  let verifyUrl: string;
  const { requests, consoleErrors } = watch;

  before(async () => {
    s = await startVerifiableServer({ tsa: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  /** A page whose visitor trusts the fake TSA's root (the page's own setting), unless `trustTsa` is false. */
  const open = async (viewport: typeof MOBILE, javaScriptEnabled = true, trustTsa = true) => {
    const opened = await openWatched(browser, watch, viewport, { javaScriptEnabled });
    if (trustTsa) {
      await opened.context.addInitScript(
        (pem) => localStorage.setItem('tyche-tsa-trust', pem),
        s.tsa!.rootPem,
      );
    }
    return opened;
  };
  const stampStates = (page: Page, of: 'seal' | 'certificate') =>
    page.locator(`[data-stamp-of="${of}"] .stamp-state`).allInnerTexts();

  const noOverflow = async (page: Page) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  };

  async function verifyInBrowser(page: Page) {
    const { folded, winnersBelow } = await verifyThisDraw(page);
    return {
      folded,
      winnersBelow,
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
    // The fake TSA dated the seal before its round: the server checked its token, so the page says so.
    assert.equal(await page.locator('[data-seal-claim="timestamped"]').count(), 1);
    assert.match(
      await page.locator('#seal').innerText(),
      /nobody — the owner or this server — could know the winners/,
    );
    assert.deepEqual(await stampStates(page, 'seal'), ['valid (Fake TSA), checked by this server']);
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
    // Each timestamp beside the seal's log line: TSA, time in UTC, and not checked without a script.
    assert.deepEqual(await stampStates(page, 'seal'), ['not checked yet']);
    assert.deepEqual(await stampStates(page, 'certificate'), ['not checked yet']);
    assert.match(
      await page.locator('[data-stamp-of="seal"]').innerText(),
      /^http:\/\/127\.0\.0\.1:\d+\/tsa, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: not checked yet$/,
    );
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
      // No witness, but the TSA's token dates the seal before the round: operator-proof, no warning.
      assert.match(result.status, /^Valid draw: all \d+ checks passed in your browser\./);
      assert.deepEqual(result.warned, []);
      assert.match(
        await page.locator('#verify-checks li.check', { hasText: 'Seal time: passed' }).innerText(),
        /operator-proof: seal witnessed or timestamped before the round \(1 TSA\)$/,
      );
      assert.deepEqual(await stampStates(page, 'seal'), ['valid (Fake TSA), checked in your browser']);
      assert.deepEqual(await stampStates(page, 'certificate'), ['valid (Fake TSA), checked in your browser']);
      for (const label of [
        'Seal timestamps',
        'Certificate timestamps',
        'Seal time',
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
      // Every check passed: on a phone they fold under the verdict, so the winners come next.
      assert.equal(result.folded, name === 'mobile');
      if (result.folded)
        assert.ok(result.winnersBelow < 250, `winners ${result.winnersBelow}px below the verdict`);
      assert.ok(await page.locator('#verify-checks li.check.ok').first().isVisible(), 'one tap shows them');
      await noOverflow(page);
      await page.screenshot({ path: join(ARTIFACTS, `verify-v2-page-${name}-valid.png`), fullPage: true });
      if (result.folded) {
        // Folded again, what a phone shows after the verdict: the first screen below the button.
        await page.locator('#verify-details summary').click();
        await page.locator('#verify-button').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(ARTIFACTS, 'verify-v2-page-mobile-valid-folded.png') });
      }
      await context.close();
    }
    const relay = `${s.drand.url}/${s.drand.chainHash}`;
    assert.ok(requests.some((r) => r.url === `${relay}/public/${cert.beacon.round}`));
    assert.ok(requests.some((r) => r.url === `${relay}/info`));
  });

  test('a TSA root the visitor does not trust: each token is named as not valid, and the seal only the operator dates', async () => {
    const { context, page } = await open(DESKTOP, true, false);
    await page.goto(verifyUrl);
    const result = await verifyInBrowser(page);
    assert.deepEqual(result.failed, ['Seal timestamps: FAILED', 'Certificate timestamps: FAILED']);
    assert.match(
      await page.locator('#verify-checks li.check.bad', { hasText: 'Seal timestamps' }).innerText(),
      /seal timestamped before the round by 0 of 1 TSA; failed: Fake TSA \(http:\/\/127\.0\.0\.1:\d+\/tsa\): no chain to a trusted root/,
    );
    assert.match(
      (await stampStates(page, 'seal'))[0],
      /^not valid, checked in your browser: no chain to a trusted root/,
    );
    assert.match(result.status, /^Invalid: 2 of \d+ checks failed/);
    await context.close();
  });

  test('?require_outside=2 asks for more than the one TSA that dates the seal; the control sets it', async () => {
    const { context, page } = await open(DESKTOP);
    await page.goto(`${verifyUrl}?require_outside=2`);
    assert.equal(await page.locator('#require-outside').inputValue(), '2');
    const strict = await verifyInBrowser(page);
    assert.deepEqual(strict.failed, ['Seal time: FAILED']);
    assert.match(
      await page.locator('#verify-checks li.check.bad').innerText(),
      /only 1 TSA dated the seal before the round; 2 outside attestations are required$/,
    );
    assert.match(strict.status, /^Invalid: 1 of \d+ checks failed/);
    await page.screenshot({
      path: join(ARTIFACTS, 'verify-v2-page-desktop-require-outside.png'),
      fullPage: true,
    });
    // Back to 0 with the page's own control: the address follows and the verdict is run again.
    await page.locator('#evidence-settings summary').click();
    await page.fill('#require-outside', '0');
    await page.locator('#require-outside').dispatchEvent('change');
    await page.locator('#verify-status.verdict.ok').waitFor({ timeout: 30_000 });
    assert.equal(new URL(page.url()).search, '');
    assert.deepEqual(await page.locator('#verify-checks li.check.bad').allInnerTexts(), []);
    await context.close();
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
    assert.equal(result.folded, false, 'a failure is never folded away');
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
