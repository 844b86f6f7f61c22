import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { remadeSeal } from '../test/helpers/remade-seal.ts';
import { ARTIFACTS, DESKTOP, launchChromium, MOBILE, newPageWatch, openWatched } from './browser.ts';
import { startVerifiableServer, type VerifiableServer } from './verifiable-server.ts';

const watch = newPageWatch();

describe('the receipt page in a real browser', () => {
  let s: VerifiableServer;
  let browser: Browser;
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
    openWatched(browser, watch, viewport, { javaScriptEnabled, acceptDownloads: true });

  async function receiptOf(page: Page, url: string) {
    await page.goto(url);
    await page.locator('#receipt-status.verdict').waitFor({ timeout: 30_000 });
    return {
      status: await page.locator('#receipt-status').innerText(),
      passed: await page.locator('#receipt-checks li.check.ok strong').allInnerTexts(),
      failed: await page.locator('#receipt-checks li.check.bad strong').allInnerTexts(),
      warned: await page.locator('#receipt-checks li.check.warn strong').allInnerTexts(),
    };
  }

  test('before the seal: the entry ticket is signed and the list is not sealed yet', async () => {
    const { context, page } = await open(DESKTOP);
    const result = await receiptOf(page, s.receipts[0].receipt_url);
    assert.match(result.status, /^Your entry ticket is signed\. The list is not sealed yet\./);
    assert.deepEqual(result.passed, [
      'Entry ticket: passed',
      'Ticket hash: passed',
      'Ticket signature: passed',
    ]);
    assert.deepEqual(result.failed, []);
    // The fragment stays in the browser: no request carried it.
    assert.ok(requests.every((r) => !r.url.includes(s.receipts[0].salt)));
    await page.screenshot({ path: join(ARTIFACTS, 'receipt-page-desktop-before-seal.png'), fullPage: true });
    await context.close();
  });

  test('sealed: each entrant finds its own place in the list', async () => {
    await s.seal({ holdRound: true });
    const sealed = await s.receiptsNow();
    for (const [i, viewport] of [
      [2, MOBILE],
      [7, DESKTOP],
    ] as const) {
      const { context, page } = await open(viewport);
      const result = await receiptOf(page, sealed[i].receipt_url);
      assert.deepEqual(result.failed, []);
      assert.match(result.status, /^You are in the sealed list\. The draw uses drand round \d+/);
      assert.equal(
        await page.locator('#receipt-place').innerText(),
        `You are entrant #${sealed[i].index! + 1} of ${s.entrants.length} in the sealed list.`,
      );
      assert.ok(result.passed.includes('Receipt inclusion proof: passed'));
      assert.ok(result.passed.includes('Seal signature: passed'));
      if (viewport === MOBILE) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone screen`);
        await page.screenshot({ path: join(ARTIFACTS, 'receipt-page-mobile-sealed.png'), fullPage: true });
      }
      await context.close();
    }
  });

  test('drawn: winners, reserves and the others each learn their outcome by re-running the draw', async () => {
    const cert = await s.release();
    const receipts = await s.receiptsNow();
    const positionOf = new Map(
      [...cert.winners, ...cert.reserves].map((e) => [e.telegram_id, e.position] as const),
    );
    const winner = receipts.find((r) => positionOf.get(r.telegram_id) === 1)!;
    const reserve = receipts.find((r) => positionOf.get(r.telegram_id) === cert.winners.length + 1)!;
    const other = receipts.find((r) => !positionOf.has(r.telegram_id))!;
    for (const [receipt, viewport, expected, shot] of [
      [winner, DESKTOP, 'You won: winner #1.', 'receipt-page-desktop-won.png'],
      [reserve, MOBILE, /^You are reserve #1: next in line/, 'receipt-page-mobile-reserve.png'],
      [other, MOBILE, 'You were not drawn this time.', undefined],
    ] as const) {
      const { context, page } = await open(viewport);
      const result = await receiptOf(page, receipt.receipt_url);
      assert.deepEqual(result.failed, [], receipt.receipt_url);
      // No witness here: the seal's time is the operator's word, a warning and not a pass.
      assert.match(result.status, /^No check failed in your browser/);
      assert.match(result.status, /Warning: Seal time: seal time attested by the operator only\.$/);
      assert.deepEqual(result.warned, ['Seal time: warning']);
      assert.equal(await page.locator('#receipt-late').isVisible(), false);
      const outcome = await page.locator('#receipt-outcome').innerText();
      if (typeof expected === 'string') assert.equal(outcome, expected);
      else assert.match(outcome, expected);
      for (const label of ['Certificate', 'Certificate and seal', 'Outcome', 'drand relay record']) {
        assert.ok(result.passed.includes(`${label}: passed`), label);
      }
      if (shot) await page.screenshot({ path: join(ARTIFACTS, shot), fullPage: true });
      await context.close();
    }
    assert.ok(
      requests.some((r) => r.url === `${s.drand.url}/${s.drand.chainHash}/public/${cert.beacon.round}`),
    );
  });

  test('in Russian: every line of the check list, its label and its detail, is said in Russian', async () => {
    const receipts = await s.receiptsNow();
    const [before, code] = receipts[0].receipt_url.split('#');
    for (const viewport of [MOBILE, DESKTOP]) {
      const { context, page } = await open(viewport);
      const result = await receiptOf(page, `${before}?lang=ru#${code}`);
      assert.deepEqual(result.failed, []);
      assert.ok(result.passed.includes('Подпись печати: пройдена'), result.passed.join('; '));
      assert.ok(result.passed.includes('Доказательство включения по квитанции: пройдена'));
      assert.deepEqual(result.warned, ['Время печати: предупреждение']);
      assert.match(result.status, /Время печати: время печати подтверждает только оператор\.$/);
      const lines = await page.locator('#receipt-checks li.check').evaluateAll((items) =>
        items.map((li) => ({
          label: li.querySelector('strong')?.textContent ?? '',
          detail: li.querySelector('.detail')?.textContent ?? '',
        })),
      );
      assert.ok(lines.length >= 15, `${lines.length} lines`);
      // Values (hashes, ids, times, formulas) stay as they are; the words around them are Russian.
      const english = lines.filter(
        (l) => !/[а-яё]/i.test(l.label) || !/[а-яё]/i.test(l.detail.replace(/SHA-256\([^)]*\)/g, '')),
      );
      assert.deepEqual(english, [], 'lines left in English');
      if (viewport === MOBILE) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone screen`);
      }
      await page.screenshot({
        path: join(ARTIFACTS, `receipt-page-ru-${viewport.width}.png`),
        fullPage: true,
      });
      await context.close();
    }
  });

  test('the certificate withheld after the round: each entrant still learns the outcome, and that the server is late', async () => {
    const receipts = await s.receiptsNow();
    // Drawn already: the certificate exists, and the routes below hide it from the page.
    const cert = await s.release();
    const winner = receipts.find((r) => r.telegram_id === cert.winners[1].telegram_id)!;
    const other = receipts.find(
      (r) =>
        ![...cert.winners, ...cert.reserves].some(
          (e: { telegram_id: number }) => e.telegram_id === r.telegram_id,
        ),
    )!;
    for (const [receipt, viewport, expected, shot] of [
      [winner, DESKTOP, 'You won: winner #2.', 'receipt-page-desktop-certificate-late.png'],
      [other, MOBILE, 'You were not drawn this time.', 'receipt-page-mobile-certificate-late.png'],
    ] as const) {
      const { context, page } = await open(viewport);
      // The service as it would look holding the result back: sealed, and no certificate.
      await page.route(`**/g/${s.publicId}.json`, async (route) => {
        const json = await (await route.fetch()).json();
        await route.fulfill({
          json: {
            ...json,
            status: 'sealed',
            certificate_id: null,
            certificate_log_index: null,
            verify_url: null,
          },
        });
      });
      const result = await receiptOf(page, receipt.receipt_url);
      assert.deepEqual(result.failed, [], result.status);
      assert.equal(await page.locator('#receipt-outcome').innerText(), expected);
      const round = cert.seal.beacon.round;
      assert.match(
        await page.locator('#receipt-late').innerText(),
        new RegExp(
          `^Round ${round} is public since [0-9-]+ [0-9:]+ UTC; the certificate is not published yet — the outcome above is computed from the seal and the round\\.$`,
        ),
      );
      for (const label of ['Outcome', 'drand relay record', 'Receipt inclusion proof']) {
        assert.ok(result.passed.includes(`${label}: passed`), label);
      }
      assert.ok(!result.passed.includes('Certificate: passed'));
      await page.screenshot({ path: join(ARTIFACTS, shot), fullPage: true });
      await context.close();
    }
  });

  test('?require_outside=1: a seal only the operator dates fails, and the receipt code stays in the fragment', async () => {
    const receipt = (await s.receiptsNow())[2];
    const { context, page } = await open(MOBILE);
    const [path, code] = receipt.receipt_url.split('#');
    const result = await receiptOf(page, `${path}?require_outside=1#${code}`);
    assert.deepEqual(result.failed, ['Seal time: FAILED']);
    assert.match(result.status, /^1 of \d+ checks failed \(Seal time\): do not trust this result\.$/);
    await page.locator('#evidence-settings summary').click();
    await page.fill('#require-outside', '0');
    await page.locator('#require-outside').dispatchEvent('change');
    await page.locator('#receipt-status.verdict.ok').waitFor({ timeout: 30_000 });
    assert.equal(new URL(page.url()).search, '');
    assert.equal(new URL(page.url()).hash, `#${code}`);
    assert.ok(requests.every((r) => !r.url.includes(receipt.salt)));
    await context.close();
  });

  test('"Save receipt" downloads what the receipt endpoint gives', async () => {
    const receipt = (await s.receiptsNow())[4];
    const { context, page } = await open(DESKTOP);
    await receiptOf(page, receipt.receipt_url);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#receipt-save')]);
    assert.match(
      download.suggestedFilename(),
      new RegExp(`^tyche-receipt-${s.publicId}-${receipt.telegram_id}\\.json$`),
    );
    const saved = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    assert.deepEqual(saved, receipt);
    await context.close();
  });

  test('a tampered proof is a named failure', async () => {
    const receipt = (await s.receiptsNow())[5];
    const { context, page } = await open(MOBILE);
    await page.route('**/g/*/proof/*', async (route) => {
      const proof = await (await route.fetch()).json();
      proof.proof[0] = proof.proof[0].replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
      await route.fulfill({ json: proof });
    });
    const result = await receiptOf(page, receipt.receipt_url);
    assert.match(
      result.status,
      /^1 of \d+ checks failed \(Receipt inclusion proof\): do not trust this result\.$/,
    );
    assert.ok(result.failed.includes('Receipt inclusion proof: FAILED'), result.failed.join());
    assert.ok(result.passed.includes('Ticket signature: passed'));
    // The receipt's proof is the page's own; the log's proofs of the seal are untouched and pass.
    assert.ok(result.passed.includes('Log inclusion (seal): passed'), result.passed.join());
    assert.equal(await page.locator('#receipt-outcome').isVisible(), false);
    await page.screenshot({
      path: join(ARTIFACTS, 'receipt-page-mobile-tampered-proof.png'),
      fullPage: true,
    });
    await context.close();
  });

  test('a seal re-made under the same id is not the one the proof names: a named failure', async () => {
    const receipt = (await s.receiptsNow())[3];
    const g = await (await fetch(`${s.server.url}/g/${s.publicId}.json`)).json();
    assert.equal(receipt.seal_hash, g.seal.hash);
    const remade = remadeSeal(s.dataDir, g.seal);
    const { context, page } = await open(DESKTOP);
    // The public JSON shows the re-made seal; the proof (immutable, cached) names the one sealed.
    await page.route(`**/g/${s.publicId}.json`, async (route) => {
      const json = await (await route.fetch()).json();
      await route.fulfill({ json: { ...json, seal: remade } });
    });
    const result = await receiptOf(page, receipt.receipt_url);
    assert.ok(result.failed.includes('Receipt and seal: FAILED'), result.failed.join());
    assert.ok(result.passed.includes('Seal signature: passed'), result.passed.join());
    const detail = await page
      .locator('#receipt-checks li.check.bad', { hasText: 'Receipt and seal' })
      .innerText();
    assert.ok(
      detail.includes(
        `the seal is not the one this receipt was issued under: hash ${remade.hash} ≠ ${g.seal.hash}`,
      ),
      detail,
    );
    assert.match(await page.locator('#receipt-status').innerText(), /do not trust this result\.$/);
    await context.close();
  });

  test('an entry left out of the sealed list is named, and its signed ticket kept', async () => {
    const receipt = (await s.receiptsNow())[6];
    const { context, page } = await open(DESKTOP);
    await page.route('**/proof/*', (route) =>
      route.fulfill({ status: 404, contentType: 'application/problem+json', body: '{"status":404}' }),
    );
    const result = await receiptOf(page, receipt.receipt_url);
    assert.deepEqual(result.failed, ['Receipt inclusion proof: FAILED']);
    assert.match(await page.locator('#receipt-checks li.check.bad').innerText(), /not in the sealed list/);
    assert.equal(await page.locator('#receipt-save').isVisible(), true);
    await context.close();
  });

  test('a wrong receipt code asks again; without a code the page offers a field', async () => {
    const { context, page } = await open(MOBILE);
    const receipt = (await s.receiptsNow())[1];
    await page.goto(receipt.receipt_url.replace(/#.*$/, ''));
    assert.equal(await page.locator('#receipt-code-form').isVisible(), true);
    await page.fill('#receipt-code', receipt.receipt_url);
    await page.click('#receipt-code-form button');
    await page.locator('#receipt-status.verdict').waitFor();
    assert.match(await page.locator('#receipt-status').innerText(), /^No check failed in your browser/);
    assert.equal(new URL(page.url()).hash, `#${receipt.telegram_id}.${receipt.salt}`);
    await page.goto(`${receipt.receipt_url.replace(/#.*$/, '')}#12.abc`);
    assert.match(await page.locator('#receipt-status').innerText(), /This receipt link is not complete/);
    await context.close();
  });

  test('no request carried credentials or left the server and the relay; no script or CSP error', () => {
    assert.ok(requests.length > 20);
    for (const r of requests) {
      assert.equal(r.authorization, undefined, r.url);
      assert.ok(r.url.startsWith(`${s.server.url}/`) || r.url.startsWith(`${s.drand.url}/`), r.url);
    }
    assert.deepEqual(
      consoleErrors.filter((e) => !/404/.test(e)),
      [],
    );
  });
});
