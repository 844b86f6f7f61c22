import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { CertificateV2, Receipt } from '../src/proof/v2-types.ts';
import { ARTIFACTS, DESKTOP, launchChromium, MOBILE, unfoldChecks } from './browser.ts';
import { startVerifiableServer, type VerifiableServer } from './verifiable-server.ts';

const AXE = fileURLToPath(new URL('../node_modules/axe-core/axe.min.js', import.meta.url));

/** People's pages in both languages, at a phone's width and a desktop's, checked with axe-core. */
describe('the public pages for people, in a real browser', () => {
  let s: VerifiableServer;
  let browser: Browser;
  let cert: CertificateV2;
  let receipts: Receipt[];

  before(async () => {
    s = await startVerifiableServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  async function open(viewport: typeof MOBILE, locale: string): Promise<Page> {
    // bypassCSP only so that axe-core can be injected; the pages' own scripts run as served.
    const context = await browser.newContext({ viewport, locale, bypassCSP: true });
    return context.newPage();
  }

  async function shoot(page: Page, name: string) {
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  /** No serious or critical axe-core violation on the page as it stands. */
  async function accessible(page: Page, name: string) {
    await page.addScriptTag({ path: AXE });
    const violations = (await page.evaluate(async () => {
      const result = await (
        globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }
      ).axe.run();
      return result.violations;
    })) as { id: string; impact: string; nodes: { target: string[] }[] }[];
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    assert.deepEqual(serious, [], `${name}: axe-core`);
  }

  test('sealed: a live countdown to the round, in Russian, and the page reloads once drawn', async () => {
    await s.seal({ holdRound: true });
    const page = await open(MOBILE, 'ru-RU');
    await page.goto(`${s.server.url}/g/${s.publicId}`);
    assert.equal(await page.getAttribute('html', 'lang'), 'ru');
    assert.match(await page.locator('#wait-heading').innerText(), /Скоро розыгрыш/);
    const countdown = page.locator('[data-countdown]');
    await countdown.waitFor({ state: 'visible' });
    assert.match(await countdown.innerText(), /^\d+:\d\d$/);
    await shoot(page, 'public-g-sealed-ru-390');
    await accessible(page, '/g sealed');
    cert = await s.release();
    receipts = await s.receiptsNow();
    // The page asks the JSON once the round is due and reloads drawn, by itself.
    await page.locator('#results').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('[data-top-winner]').count(), cert.winners.length);
    await page.context().close();
  });

  test('drawn: winners and reserves at the top, the chart, the timeline, in English', async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await open(viewport, 'en-US');
      await page.goto(`${s.server.url}/g/${s.publicId}`);
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      const winners = await page.locator('#top-winners li .who').allInnerTexts();
      assert.deepEqual(
        winners,
        cert.winners.map((w) => `@${w.username}`),
      );
      const reserves = await page.locator('#top-reserves li .who').allInnerTexts();
      assert.deepEqual(
        reserves,
        cert.reserves.map((w) => `@${w.username}`),
      );
      // The results come before any of the evidence.
      const before = await page.evaluate(() => {
        const results = document.getElementById('results');
        const seal = document.getElementById('seal');
        return (
          results !== null &&
          seal !== null &&
          results.compareDocumentPosition(seal) === Node.DOCUMENT_POSITION_FOLLOWING
        );
      });
      assert.ok(before, 'the results are above the seal');
      // One point per UTC hour from the first join to the last.
      const hours = receipts.map((r) => Math.floor(Date.parse(r.ticket.joined_at) / 3_600_000));
      const expected = Math.max(...hours) - Math.min(...hours) + 1;
      assert.equal(await page.getAttribute('svg.chart', 'data-points'), String(expected));
      assert.equal(await page.locator('svg.chart rect.bar').count(), expected);
      const points = (await page.getAttribute('svg.chart polyline', 'points')) ?? '';
      assert.equal(points.trim().split(/\s+/).length, expected);
      assert.deepEqual(await page.locator('.timeline li.done').count(), 4);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
      await shoot(page, `public-g-drawn-en-${viewport.width}`);
      await accessible(page, '/g drawn');
      await page.context().close();
    }
  });

  test('verify: the check sits by the verdict at the top; Russian and English', async () => {
    for (const [locale, button] of [
      ['ru-RU', 'Проверить розыгрыш'],
      ['en-US', 'Verify this draw'],
    ] as const) {
      for (const viewport of [MOBILE, DESKTOP]) {
        const page = await open(viewport, locale);
        await page.goto(`${s.server.url}/verify/${cert.certificate_id}`);
        assert.equal(await page.locator('#verify-button').innerText(), button);
        const top = await page.evaluate(() => {
          const verify = document.getElementById('verify');
          const winners = document.getElementById('winners-heading');
          return (
            verify !== null &&
            winners !== null &&
            verify.compareDocumentPosition(winners) === Node.DOCUMENT_POSITION_FOLLOWING
          );
        });
        assert.ok(top, 'the check is above the winners');
        await page.locator('#verify-button').click();
        await page.locator('#verify-status.verdict').waitFor({ timeout: 30_000 });
        assert.equal(await page.locator('#verify-checks li.check.bad').count(), 0);
        await unfoldChecks(page);
        await shoot(page, `public-verify-${locale.slice(0, 2)}-${viewport.width}`);
        await accessible(page, `/verify ${locale}`);
        await page.context().close();
      }
    }
  });

  test('receipt: the Merkle path drawn as a tree, one 1-based number, "not drawn" not in green', async () => {
    const drawn = new Set([...cert.winners, ...cert.reserves].map((w) => w.index));
    const loser = receipts.find((r) => !drawn.has(r.index!))!;
    const winner = receipts.find((r) => r.index === cert.winners[0].index)!;
    for (const [who, r] of [
      ['not-drawn', loser],
      ['winner', winner],
    ] as const) {
      for (const viewport of [MOBILE, DESKTOP]) {
        const page = await open(viewport, who === 'winner' ? 'ru-RU' : 'en-US');
        await page.goto(r.receipt_url);
        await page.locator('#receipt-status.verdict').waitFor({ timeout: 30_000 });
        const levels = page.locator('#receipt-tree-levels li');
        assert.equal(await levels.count(), r.proof!.length + 1);
        assert.equal(await page.getAttribute('#receipt-tree .node.root', 'data-hash'), r.root);
        assert.equal(
          await page.getAttribute('#receipt-tree li[data-level="0"] .node.path', 'data-hash'),
          r.leaf_hash,
        );
        // Each hash shows shortened and opens in full.
        const first = page.locator('#receipt-tree .node.root details');
        assert.match(await first.locator('summary').innerText(), /^[0-9a-f]{8}…[0-9a-f]{4}$/);
        const place = await page.locator('#receipt-place').innerText();
        assert.ok(place.includes(`${r.index! + 1}`) && !place.includes(`index ${r.index}`), place);
        const summary = await page.getAttribute('#receipt-summary', 'class');
        assert.equal(summary, who === 'winner' ? 'summary ok' : 'summary neutral');
        if (who === 'winner') assert.match(await page.locator('#receipt-outcome').innerText(), /Вы выиграли/);
        await shoot(page, `public-receipt-${who}-${viewport.width}`);
        await accessible(page, `receipt ${who}`);
        await page.context().close();
      }
    }
  });
});
