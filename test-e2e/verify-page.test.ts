import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Certificate } from '../src/giveaways/draw/certificate.ts';
import { runTyche } from '../test/helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import {
  ARTIFACTS,
  DESKTOP,
  launchChromium,
  MOBILE,
  newPageWatch,
  openWatched,
  verifyThisDraw,
} from './browser.ts';

const TITLE = `Launch giveaway — 3 × headphones <script>alert("x")</script> & 'friends'`;

const watch = newPageWatch();

describe('the verification page in a real browser', () => {
  let dir: string;
  let server: ServerProcess;
  let browser: Browser;
  let verifyUrl: string;
  let certificateId: string;
  const { requests, consoleErrors } = watch;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tyche-e2e-'));
    const env = { DATA_DIR: dir, TYCHE_SOURCES: 'system', LOG_LEVEL: 'warn' };
    server = await startServerProcess(env);
    const created = await runTyche(['keys', 'create', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const headers = {
      authorization: `Bearer ${JSON.parse(created.stdout).key}`,
      'content-type': 'application/json',
    };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      assert.ok(res.ok, `${path}: ${res.status} ${await res.clone().text()}`);
      return res.json();
    };
    const giveaway = await post('/giveaways', { title: TITLE, winners_count: 3, draw_mode: 'instant' });
    const names = ['alice', 'bob_b', 'Zoë', '<img src=x onerror=alert(1)>', 'carol', 'dave', 'erin', 'frank'];
    await post(`/giveaways/${giveaway.public_id}/participants`, {
      participants: names.map((username, i) => ({ telegram_id: 5_000_000_000 + i * 104729, username })),
    });
    ({ verify_url: verifyUrl, certificate_id: certificateId } = await post(
      `/giveaways/${giveaway.public_id}/draw`,
      {},
    ));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (options: { viewport: typeof MOBILE; javaScriptEnabled?: boolean }) =>
    openWatched(browser, watch, options.viewport, options);

  async function verifyInBrowser(page: Page): Promise<string> {
    await verifyThisDraw(page);
    return page.locator('#verify-status').innerText();
  }

  test('reads fully without JavaScript, on a phone', async () => {
    const { context, page } = await open({ viewport: MOBILE, javaScriptEnabled: false });
    const response = await page.goto(verifyUrl);
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('h1').innerText(), TITLE);
    assert.equal(await page.locator('[data-winner-position]').count(), 3);
    assert.equal(await page.getByRole('button', { name: 'Verify this draw' }).isVisible(), false);
    assert.match(
      await page.locator('[data-trust="operator"]').innerText(),
      /the operator's randomness must be trusted/,
    );
    // The check sits at the top, by the verdict; the signature and how-to below the evidence.
    for (const heading of [
      'Check this draw',
      'Winners',
      'The draw',
      'Randomness',
      'Certificate signature',
      'How this works',
    ]) {
      assert.ok(await page.getByRole('region', { name: heading }).isVisible(), heading);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone screen`);
    await page.screenshot({ path: join(ARTIFACTS, 'verify-page-mobile-no-js.png'), fullPage: true });
    await context.close();
  });

  test('the button reports a valid draw, check by check', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [MOBILE, 'mobile'],
    ] as const) {
      const { context, page } = await open({ viewport });
      await page.goto(verifyUrl);
      const winners = await page.locator('[data-winner-position] td:nth-child(2)').allInnerTexts();
      assert.equal(winners.length, 3);
      const verdict = await verifyInBrowser(page);
      assert.equal(
        verdict,
        "The certificate checks out (all 10 checks passed in your browser), but the operator's randomness must be trusted.",
      );
      // Seven checks of the certificate, three of the log: checkpoint, inclusion, signing key.
      assert.equal(await page.locator('#verify-checks li.check.ok').count(), 10);
      assert.ok(
        (await page.locator('#verify-checks li.check.ok strong').allInnerTexts()).includes(
          'Signing key in the log (certificate): passed',
        ),
      );
      assert.equal(await page.locator('#verify-checks li.check.bad').count(), 0);
      assert.match(
        await page.locator('#verify-checks li.check.note').innerText(),
        /^•\s+Trust\s+the operator's randomness must be trusted$/,
      );
      assert.equal(await page.locator('#verify-result').getAttribute('aria-live'), 'polite');
      await page.screenshot({ path: join(ARTIFACTS, `verify-page-${name}-valid.png`), fullPage: true });
      await context.close();
    }
  });

  test('a certificate altered on the way reports invalid', async () => {
    const { context, page } = await open({ viewport: DESKTOP });
    await page.route(`**/verify/${certificateId}.json`, async (route) => {
      const cert = (await (await route.fetch()).json()) as Certificate;
      cert.winners[0].telegram_id += 1;
      await route.fulfill({ json: cert });
    });
    await page.goto(verifyUrl);
    // The altered certificate is not the one in the log either; the log's own checks stop there.
    assert.match(await verifyInBrowser(page), /^Invalid: 4 of 9 checks failed/);
    const failed = await page.locator('#verify-checks li.check.bad strong').allInnerTexts();
    assert.deepEqual(failed, [
      'This page shows the certificate: FAILED',
      'Certificate hash: FAILED',
      'Ed25519 signature: FAILED',
      'Log inclusion (certificate): FAILED',
    ]);
    await context.close();
  });

  test('a certificate altered in the store reports invalid', async () => {
    const db = new DatabaseSync(join(dir, 'tyche.sqlite'));
    const row = db.prepare('select body from certificates where id = ?').get(certificateId) as {
      body: string;
    };
    const cert = JSON.parse(row.body) as Certificate;
    // The operator moves the prize to someone else and fixes the hash; only the signature is left.
    cert.winners[1].username = 'mallory';
    cert.winners[1].telegram_id = 777;
    db.prepare('update certificates set body = ? where id = ?').run(JSON.stringify(cert), certificateId);
    db.close();
    const { context, page } = await open({ viewport: MOBILE });
    await page.goto(verifyUrl);
    assert.ok((await page.locator('[data-winner-position="2"]').innerText()).includes('@mallory'));
    assert.match(await verifyInBrowser(page), /^Invalid: /);
    const failed = await page.locator('#verify-checks li.check.bad strong').allInnerTexts();
    assert.ok(failed.includes('Certificate hash: FAILED'));
    assert.ok(failed.includes('Ed25519 signature: FAILED'));
    await page.screenshot({ path: join(ARTIFACTS, 'verify-page-mobile-tampered.png'), fullPage: true });
    await context.close();
  });

  test('no request carried credentials or left the server; no script or CSP error', () => {
    assert.ok(requests.length > 10);
    for (const r of requests) {
      assert.equal(r.authorization, undefined, r.url);
      assert.ok(r.url.startsWith(`${server.url}/`), r.url);
    }
    assert.ok(requests.some((r) => r.url.endsWith('/assets/js/verify/verify-button.js')));
    assert.ok(requests.some((r) => r.url.endsWith('/.well-known/tyche-keys.json')));
    // Chromium asks for /favicon.ico on its own, and that 404 is logged as a console error.
    assert.deepEqual(
      consoleErrors.filter((e) => !/404/.test(e)),
      [],
    );
  });
});
