import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Amendment } from '../src/proof/amendments.ts';
import { startChainServer } from '../test/helpers/chain-server.ts';
import {
  ARTIFACTS,
  DESKTOP,
  launchChromium,
  MOBILE,
  newPageWatch,
  openWatched,
  verifyThisDraw,
} from './browser.ts';

const watch = newPageWatch();
const NOTE = 'Same phone as winner #2 <script>alert(1)</script>';

/** CONTRACT §14: the certificate page of an amended draw, and its in-browser check. */
describe('the certificate page of an amended draw in a real browser', () => {
  let s: Awaited<ReturnType<typeof startChainServer>>;
  let browser: Browser;
  let verifyUrl: string;
  let certificateId: string;
  let amended: { username: string; telegram_id: number }[];
  let publicId: string;

  before(async () => {
    s = await startChainServer({ env: { LOG_LEVEL: 'warn', TYCHE_DRAW_WAIT_MS: '0' } });
    const g = await s.call('POST', '/giveaways', {
      title: 'Amended giveaway',
      winners_count: 2,
      reserve_count: 2,
    });
    const entrants = Array.from({ length: 10 }, (_, i) => ({
      telegram_id: 5_000_000_000 + i * 7919,
      username: `fan${i}`,
    }));
    await s.call('POST', `/giveaways/${g.public_id}/participants`, { participants: entrants });
    let drawn = await s.call('POST', `/giveaways/${g.public_id}/draw`, {});
    for (let i = 0; drawn.status !== 'completed'; i++) {
      assert.ok(i < 240, `the draw did not complete: ${drawn.status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      drawn = await s.call('GET', `/giveaways/${g.public_id}`);
    }
    certificateId = drawn.certificate_id;
    publicId = g.public_id;
    await s.call('POST', `/giveaways/${g.public_id}/winners/1/replace`, {
      reason: 'duplicate_account',
      note: NOTE,
    });
    const last = await s.call('POST', `/giveaways/${g.public_id}/winners/2/replace`, {
      reason: 'ineligible',
    });
    amended = last.amended_winners;
    verifyUrl = `${s.server.url}/verify/${certificateId}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  async function verifyInBrowser(page: Page) {
    await verifyThisDraw(page);
    return {
      status: await page.locator('#verify-status').innerText(),
      passed: await page.locator('#verify-checks li.check.ok strong').allInnerTexts(),
      failed: await page.locator('#verify-checks li.check.bad strong').allInnerTexts(),
    };
  }

  test('the winners as amended come first, then the history; the in-browser check passes', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [MOBILE, 'mobile'],
    ] as const) {
      const { context, page } = await openWatched(browser, watch, viewport);
      await page.goto(verifyUrl);
      const headings = await page.locator('h2').allInnerTexts();
      // The check first, by the verdict; then the winners as they stand, then as drawn.
      assert.deepEqual(headings.slice(0, 3), ['Check this draw', 'Winners as amended', 'Winners as drawn']);
      const rows = await page.locator('[data-amended-position]').allInnerTexts();
      assert.equal(rows.length, 2);
      for (const [i, w] of amended.entries()) {
        assert.match(rows[i], new RegExp(`^${i + 1}\\s+@${w.username}\\s+${w.telegram_id}\\s+substitute`));
      }
      const history = await page.locator('#amendment-history > li').allInnerTexts();
      assert.equal(history.length, 2);
      assert.match(
        history[0],
        /^Amendment 1, .*: winner #1 @fan\d+ \(\d+\) was replaced by reserve 1, @fan\d+ \(\d+\)\./,
      );
      // The owner's note is shown as text, never as markup.
      assert.ok(
        history[0].includes(`Reason: duplicate account. Note from the organiser: “${NOTE}”`),
        history[0],
      );
      assert.match(
        history[1],
        /^Amendment 2, .*: winner #2 .* was replaced by reserve 2, .*\.\n+Reason: not eligible$/,
      );

      const result = await verifyInBrowser(page);
      assert.deepEqual(result.failed, []);
      assert.match(result.status, /^Valid draw: /);
      for (const label of [
        'This page shows the certificate',
        'Amendments',
        'Amended winners',
        'Log inclusion (amendment 1)',
        'Signing key in the log (amendment 1)',
        'Log inclusion (amendment 2)',
        'Signing key in the log (amendment 2)',
      ]) {
        assert.ok(result.passed.includes(`${label}: passed`), `${label} in ${result.passed.join(', ')}`);
      }
      await page.screenshot({ path: join(ARTIFACTS, `verify-amended-page-${name}.png`), fullPage: true });
      await context.close();
    }
  });

  test('an amendment altered in the JSON on the way fails the check, by name', async () => {
    const { context, page } = await openWatched(browser, watch, MOBILE);
    await page.route(`**/verify/${certificateId}.json`, async (route) => {
      const doc = (await (await route.fetch()).json()) as { amendments: Amendment[] };
      // The owner's reason rewritten after signing: the hash, the signature and the log disagree.
      doc.amendments[0].reason = 'left_channel';
      await route.fulfill({ json: doc });
    });
    await page.goto(verifyUrl);
    const result = await verifyInBrowser(page);
    assert.deepEqual(result.failed, [
      'Amendment hash (amendment 1): FAILED',
      'Amendment signature (amendment 1): FAILED',
      'Log inclusion (amendment 1): FAILED',
    ]);
    assert.match(result.status, /^Invalid: 3 of \d+ checks failed\./);
    await page.screenshot({ path: join(ARTIFACTS, 'verify-amended-page-altered.png'), fullPage: true });
    await context.close();
  });

  test('the receipt page tells a promoted reserve they are now a winner, replacing the one named', async () => {
    const cert = await (await fetch(`${verifyUrl}.json`)).json();
    const last = (cert.amendments as Amendment[]).at(-1)!;
    const listed = [...cert.winners, ...cert.reserves] as {
      index: number;
      username: string;
      telegram_id: number;
    }[];
    const substitute = listed.find((e) => e.index === last.by.index)!;
    const replaced = listed.find((e) => e.index === last.replaced.index)!;
    const receipt = await s.call('GET', `/giveaways/${publicId}/entrants/${substitute.telegram_id}/receipt`);
    const { context, page } = await openWatched(browser, watch, MOBILE);
    await page.goto(receipt.receipt_url);
    await page.locator('#receipt-status.verdict').waitFor({ timeout: 30_000 });
    assert.deepEqual(await page.locator('#receipt-checks li.check.bad strong').allInnerTexts(), []);
    assert.equal(
      await page.locator('#receipt-outcome').innerText(),
      `You are now winner #${last.position}, replacing @${replaced.username} (${replaced.telegram_id}) (amendment 2: ineligible).`,
    );
    assert.equal(await page.locator('#receipt-outcome').getAttribute('class'), 'outcome won');
    const passed = await page.locator('#receipt-checks li.check.ok strong').allInnerTexts();
    assert.ok(passed.includes('Amendments: passed'), passed.join(', '));
    await page.screenshot({ path: join(ARTIFACTS, 'receipt-page-mobile-promoted.png'), fullPage: true });
    await context.close();
  });

  test('no script or CSP error on the page', () => {
    assert.deepEqual(
      watch.consoleErrors.filter((e) => !/404|ERR_CONNECTION_REFUSED/.test(e)),
      [],
    );
  });
});
