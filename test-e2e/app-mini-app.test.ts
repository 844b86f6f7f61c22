import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sign } from '@telegram-apps/init-data-node';
import type { Browser, Page } from 'playwright-core';
import { systemClock } from '../src/shared/clock.ts';
import { type ChainServer, startChainServer } from '../test/helpers/chain-server.ts';
import { runTyche } from '../test/helpers/cli.ts';
import { type FakeTelegram, startFakeTelegram } from '../test/helpers/fake-telegram.ts';
import { type FakeTsa, startFakeTsa, writeTsaTrust } from '../test/helpers/fake-tsa.ts';
import { ARTIFACTS, DESKTOP, launchChromium, MOBILE } from './browser.ts';

const OWNER = { id: 7_100_001, first_name: 'Olga', username: 'olga_shop', language_code: 'ru' };
const ENTRANT = { id: 7_100_101, first_name: 'Ann', username: 'ann', language_code: 'en' };
const CHANNEL = { id: -1009876543210, title: 'Olga’s shop', username: 'olga_shop_news' };

/** Telegram's own light and dark themes, as a client sends them in tgWebAppThemeParams. */
const LIGHT = {
  bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#707579',
  link_color: '#3390ec',
  button_color: '#3390ec',
  button_text_color: '#ffffff',
  secondary_bg_color: '#f4f4f5',
  section_bg_color: '#ffffff',
  section_separator_color: '#e7e7e7',
  destructive_text_color: '#e53935',
  accent_text_color: '#3390ec',
};
const DARK = {
  bg_color: '#17212b',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  secondary_bg_color: '#232e3c',
  section_bg_color: '#232e3c',
  section_separator_color: '#111921',
  destructive_text_color: '#ec3942',
  accent_text_color: '#6ab2f2',
};

const AXE = readFileSync(new URL('../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

describe('the Telegram Mini App in a real browser', () => {
  let fake: FakeTelegram;
  let s: ChainServer;
  let browser: Browser;
  /** Dates the seal and the certificate; the entrant's browser trusts its root, as a visitor can. */
  let tsa: FakeTsa;
  const pageErrors: string[] = [];

  before(async () => {
    tsa = await startFakeTsa({ clock: systemClock, name: 'Fake TSA' });
    fake = await startFakeTelegram();
    fake.addChannel(CHANNEL);
    fake.makeBotAdmin(CHANNEL.id);
    s = await startChainServer({
      env: {
        LOG_LEVEL: 'warn',
        TYCHE_DRAW_WAIT_MS: '0',
        TYCHE_PUBLIC_RATE_LIMIT: '0',
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.url,
        TYCHE_TSA_URLS: tsa.url,
        TYCHE_TSA_TRUST: writeTsaTrust(join(tmpdir(), `tyche-e2e-app-tsa-${process.pid}.pem`), [tsa]),
      },
    });
    const plan = await runTyche(['accounts', 'plan', String(OWNER.id), 'business'], {
      DATA_DIR: join(s.dir, 'data'),
    });
    assert.equal(plan.code, 0, plan.stderr);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
    await fake?.close();
    await tsa?.close();
  });

  /** The address Telegram opens: launch parameters in the fragment, as the clients put them. */
  function launchUrl(
    user: object,
    options: { theme?: object; authDate?: Date; token?: string; query?: string } = {},
  ) {
    const initData = sign(
      {
        user,
        query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
        chat_instance: '-3788475317572404878',
        chat_type: 'private',
      } as Parameters<typeof sign>[0],
      options.token ?? fake.token,
      options.authDate ?? new Date(),
    );
    const launch = new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'ios',
      tgWebAppThemeParams: JSON.stringify(options.theme ?? LIGHT),
    });
    return `${s.server.url}/app${options.query ?? ''}#${launch.toString()}`;
  }

  /** A phone-sized page inside a stand-in for Telegram's web view (its event proxy). */
  async function openApp(url: string, options: { dark?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({
      viewport: MOBILE,
      colorScheme: options.dark ? 'dark' : 'light',
      // Only the axe check is injected from outside; the app itself runs under its own CSP.
      bypassCSP: true,
    });
    await context.addInitScript((pem) => {
      (window as unknown as Record<string, unknown>).TelegramWebviewProxy = { postEvent: () => {} };
      localStorage.setItem('tyche-tsa-trust', pem);
    }, tsa.rootPem);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    await page.goto(url);
    return page;
  }

  async function axeCheck(page: Page, what: string) {
    await page.addScriptTag({ content: AXE });
    const violations = (await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
      return (await axe.run()).violations;
    })) as { id: string; impact: string; nodes: { target: string[] }[] }[];
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `${what}: serious accessibility violations`,
    );
  }

  const overflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  test('the owner creates a giveaway, entrants join, the owner draws it; the chart, in Russian and dark', async () => {
    const page = await openApp(launchUrl(OWNER, { theme: DARK }), { dark: true });
    await page.locator('#tab-giveaways').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#tab-giveaways').innerText(), 'Мои розыгрыши');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(23, 33, 43)', 'Telegram’s dark background');
    await page.locator('#tab-giveaways').click();
    await page.locator('#new-giveaway-button').click();

    await page.locator('#field-title').fill('Розыгрыш <b>кружки</b>');
    await page.locator('#field-winners_count').fill('2');
    await page.locator('#field-channel').fill('@nobody_here');
    await page.locator('#publish').click();
    const channelError = page.locator('#field-channel-error');
    await channelError.waitFor({ state: 'visible' });
    assert.match(await channelError.innerText(), /Бот не видит @nobody_here/);
    assert.equal(await page.locator('#field-channel').getAttribute('aria-invalid'), 'true');
    await page.screenshot({ path: join(ARTIFACTS, 'app-owner-form-error-ru-dark.png'), fullPage: true });
    // The refusal above is logged by the browser as a failed request; nothing else may be.
    pageErrors.splice(0);

    await page.locator('#field-channel').fill('@olga_shop_news');
    await page.locator('#field-reserve_count').fill('1');
    await page.locator('#field-terms').fill('Один участник — одна заявка.');
    await page.locator('#publish').click();
    await page.locator('#seal-button').waitFor();
    const title = await page.locator('#app-view h2').innerText();
    assert.equal(title, 'Розыгрыш <b>кружки</b>', 'the title shown as text');
    const publicId = new URL((await page.locator('#links a').first().getAttribute('href'))!).pathname.split(
      '/',
    )[2];

    // Entrants join through the owner's API key, in two bursts an hour apart in the chart's terms.
    const key = await runTyche(['keys', 'create', '--owner', String(OWNER.id), '--json'], {
      DATA_DIR: join(s.dir, 'data'),
    });
    const headers = {
      authorization: `Bearer ${JSON.parse(key.stdout).key}`,
      'content-type': 'application/json',
    };
    const participants = [
      ENTRANT,
      ...Array.from({ length: 7 }, (_, i) => ({ id: 7_100_200 + i, username: `fan${i}` })),
    ];
    const added = await fetch(`${s.server.url}/api/v1/giveaways/${publicId}/participants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        participants: participants.map((p) => ({ telegram_id: p.id, username: p.username })),
      }),
    });
    assert.equal(added.status, 200, await added.text());

    await page.locator('#tab-giveaways').click();
    await page.locator(`[data-giveaway="${publicId}"]`).click();
    await page.locator('#entrant-chart canvas').first().waitFor();
    assert.equal(await page.locator('#entrant-chart').getAttribute('data-points'), '1');
    const painted = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('#entrant-chart canvas')!;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let inked = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
      return inked;
    });
    assert.ok(painted > 100, `the chart canvas is painted (${painted} pixels)`);
    assert.ok((await overflow(page)) <= 0, 'no sideways scrolling at 390 px');
    await page.screenshot({ path: join(ARTIFACTS, 'app-owner-giveaway-ru-dark.png'), fullPage: true });
    await axeCheck(page, 'owner view');

    await page.locator('#draw-button').click();
    await page.locator('#giveaway-state').filter({ hasText: 'Запечатан' }).waitFor({ timeout: 20_000 });
    // The draw follows by itself at the committed round (seconds on the local chain).
    const deadline = Date.now() + 60_000;
    for (;;) {
      await page.locator('#tab-giveaways').click();
      await page.locator(`[data-giveaway="${publicId}"]`).click();
      await page.locator('#giveaway-state').waitFor();
      if ((await page.locator('#winners').count()) > 0) break;
      assert.ok(Date.now() < deadline, 'the draw did not complete');
      await page.waitForTimeout(1_000);
    }
    assert.equal(await page.locator('#winners .winners li').count(), 2);
    assert.ok((await page.locator('#links a').count()) >= 2, 'page and certificate links');
    await page.screenshot({ path: join(ARTIFACTS, 'app-owner-drawn-ru-dark.png'), fullPage: true });

    // The entrant opens the app on this giveaway (?g=…) and checks the receipt in the page.
    const entrant = await openApp(launchUrl(ENTRANT, { query: `?g=${publicId}` }));
    const verdict = entrant.locator('#entry-verdict.ok, #entry-verdict.warn, #entry-verdict.bad');
    await verdict.waitFor({ timeout: 30_000 });
    // Every check passed (the seal dated by a TSA this browser trusts): they fold under the verdict.
    assert.equal(await entrant.locator('#entry-verdict').getAttribute('class'), 'verdict ok');
    const fold = entrant.locator('#entry-checks-fold');
    assert.equal(await fold.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await entrant.screenshot({ path: join(ARTIFACTS, 'app-entrant-receipt-en-folded.png'), fullPage: true });
    await fold.locator('summary').click();
    const failed = await entrant.locator('#entry-checks li.check.bad strong').allInnerTexts();
    assert.deepEqual(failed, []);
    const passed = await entrant.locator('#entry-checks li.check.ok strong').allInnerTexts();
    for (const label of [
      'Leaf hash',
      'Entry ticket',
      'Ticket signature',
      'Receipt inclusion proof',
      'Seal signature',
    ]) {
      assert.ok(
        passed.some((p) => p.startsWith(`${label}:`)),
        `${label} passed (${passed.join('; ')})`,
      );
    }
    assert.match(
      await entrant.locator('#entry-outcome').innerText(),
      /^You (won: winner #\d|are reserve #1|were not drawn)/,
    );
    assert.match(
      await entrant.locator('#entry-place').innerText(),
      /^You are entrant #\d+ of 8 in the sealed list\.$/,
    );
    assert.equal(
      await entrant.locator('#tab-giveaways').isVisible(),
      false,
      'no owner tab on a free account',
    );
    assert.ok((await overflow(entrant)) <= 0);
    await entrant.screenshot({ path: join(ARTIFACTS, 'app-entrant-receipt-en-light.png'), fullPage: true });
    await axeCheck(entrant, 'entrant view');
    // A winner claims the prize from the app, through the service the bot's Claim button calls.
    if (await entrant.locator('#claim-button').isVisible()) {
      await entrant.locator('#claim-button').click();
      await entrant
        .locator('#entry-claim [role=status]')
        .filter({ hasText: /^Claimed on / })
        .waitFor();
    }

    // The winner, in Russian: Claim once, and on every later opening the app says when, on load.
    const g = (await (await fetch(`${s.server.url}/g/${publicId}.json`)).json()) as {
      certificate_id: string;
    };
    const cert = (await (await fetch(`${s.server.url}/verify/${g.certificate_id}.json`)).json()) as {
      winners: { telegram_id: number }[];
    };
    const winner = { id: cert.winners[0].telegram_id, first_name: 'Вика', language_code: 'ru' };
    const first = await openApp(launchUrl(winner, { query: `?g=${publicId}` }));
    await first.locator('#entry-verdict.ok, #entry-verdict.warn').waitFor({ timeout: 30_000 });
    if (await first.locator('#claim-button').isVisible()) {
      assert.equal(await first.locator('#claim-button').textContent(), 'Забрать приз');
      await first.locator('#claim-button').click();
      await first
        .locator('#entry-claim [role=status]')
        .filter({ hasText: /^Приз забран / })
        .waitFor();
    }
    const again = await openApp(launchUrl(winner, { query: `?g=${publicId}` }));
    const claimed = again.locator('#entry-claim .claimed');
    await claimed.waitFor();
    assert.match(String(await claimed.textContent()), /^Приз забран \d/);
    assert.equal(await again.locator('#claim-button').count(), 0, 'no Claim before the checks end');
    await again.locator('#entry-verdict.ok, #entry-verdict.warn').waitFor({ timeout: 30_000 });
    assert.equal(await again.locator('#claim-button').count(), 0, 'nor after');
    // The receipt's checks speak Russian too: every label and every detail.
    const lines = await again
      .locator('#entry-checks li.check')
      .evaluateAll((items) =>
        items.map(
          (li) => `${li.querySelector('strong')?.textContent} ${li.querySelector('.detail')?.textContent}`,
        ),
      );
    assert.ok(lines.length >= 10, lines.join('\n'));
    const english = lines.filter((l) => !/^[^a-z]*[а-яё]/i.test(l) || /: (passed|warning|FAILED)/.test(l));
    assert.deepEqual(english, [], 'check lines left in English');
    assert.ok((await overflow(again)) <= 0);
    await again.screenshot({ path: join(ARTIFACTS, 'app-entrant-claimed-ru-390.png'), fullPage: true });
    await again.setViewportSize(DESKTOP);
    assert.ok((await overflow(again)) <= 0);
    await again.screenshot({ path: join(ARTIFACTS, 'app-entrant-claimed-ru-1280.png'), fullPage: true });
    assert.deepEqual(pageErrors, []);
  });

  test('the entries list, in English', async () => {
    const page = await openApp(launchUrl(ENTRANT));
    await page.locator('[data-entry]').first().waitFor();
    assert.equal(await page.locator('#tab-entries').innerText(), 'My entries');
    assert.match(await page.locator('[data-entry]').first().innerText(), /Entry #1/);
    await page.screenshot({ path: join(ARTIFACTS, 'app-entrant-list-en-light.png'), fullPage: true });
    await axeCheck(page, 'entries list');
  });

  test('altered, expired or foreign initData is refused; outside Telegram the page says where to open it', async () => {
    const genuine = launchUrl(ENTRANT);
    const cases = [
      ['altered', genuine.replace('Ann', 'Bob')],
      ['expired', launchUrl(ENTRANT, { authDate: new Date(Date.now() - 2 * 3_600_000) })],
      ['another bot', launchUrl(ENTRANT, { token: '654321:another-bot' })],
    ];
    for (const [what, url] of cases) {
      const page = await openApp(url);
      const line = page.locator('#app-status.bad');
      await line.waitFor();
      assert.match(await line.innerText(), /sign-in was refused/, what);
      assert.equal(await page.locator('#app-tabs').isVisible(), false, what);
      if (what === 'expired') await page.screenshot({ path: join(ARTIFACTS, 'app-signin-refused.png') });
    }
    const outside = await browser.newPage({ viewport: MOBILE });
    await outside.goto(`${s.server.url}/app`);
    await outside.locator('#app-status.bad').waitFor();
    assert.match(await outside.locator('#app-status').innerText(), /Open this page from the Tyche bot/);
    await outside.close();
  });
});
