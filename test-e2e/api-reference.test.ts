import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runTyche } from '../test/helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import { ARTIFACTS, DESKTOP, launchChromium, MOBILE, newPageWatch, openWatched } from './browser.ts';

/**
 * The reference page at /docs in a real browser with the network cut off: only the server is
 * reachable. It is published as http://tyche.test — an address that is not loopback, so the
 * UI would reach for a CDN or a request proxy if it were set to — and the browser's requests
 * for that host are answered by the server process on loopback; every other request is
 * refused and recorded.
 */

const HOST = 'tyche.test';
const ORIGIN = `http://${HOST}`;
// biome-ignore lint/suspicious/noExplicitAny: the document is read field by field
type Json = Record<string, any>;

const watch = newPageWatch();

describe('the API reference page in a real browser, offline', () => {
  let dir: string;
  let server: ServerProcess;
  let browser: Browser;
  let key: string;
  let doc: Json;
  const blocked: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tyche-e2e-'));
    const env = { DATA_DIR: dir, TYCHE_SOURCES: 'system', LOG_LEVEL: 'warn', PUBLIC_BASE_URL: ORIGIN };
    server = await startServerProcess(env);
    const created = await runTyche(['keys', 'create', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    key = JSON.parse(created.stdout).key;
    doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(viewport: typeof DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await openWatched(browser, watch, viewport);
    await opened.context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.hostname !== HOST) {
        blocked.push(url.href);
        return route.abort('internetdisconnected');
      }
      const response = await route.fetch({
        url: `${server.url}${url.pathname}${url.search}`,
        maxRedirects: 0,
      });
      return route.fulfill({ response });
    });
    const response = await opened.page.goto(`${ORIGIN}/docs/`);
    assert.equal(response?.status(), 200);
    await opened.page.getByRole('heading', { name: 'Tyche API', exact: true }).waitFor();
    return opened;
  }

  test('/docs leads to the page, whose CSP allows its own script and nothing from elsewhere', async () => {
    const redirect = await fetch(`${server.url}/docs`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/docs/');
    const page = await fetch(`${server.url}/docs/`);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /^default-src 'none'; script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
    assert.match(csp, new RegExp(`connect-src 'self' ${ORIGIN};`));
    assert.doesNotMatch(csp, /unsafe-eval|https:|\*/);
    const script = await fetch(`${server.url}/docs/js/scalar.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
  });

  test('renders every operation, the bearer scheme and the error table, at desktop width', async () => {
    const { context, page } = await open(DESKTOP);
    const intro = page.getByText('Errors are RFC 9457 problem details');
    await intro.waitFor();
    assert.equal(await page.getByRole('link', { name: 'as a page' }).getAttribute('href'), '/docs/errors');
    for (const code of ['invalid_type', 'daily_limit_exceeded', 'randomness_unavailable']) {
      assert.ok(await page.getByRole('cell', { name: code, exact: true }).isVisible(), code);
    }
    assert.ok(await page.getByText('Bearer Token').first().isVisible());
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-desktop.png') });

    for (const tag of doc.tags.map((t: { name: string }) => t.name)) {
      const closed = page.getByRole('button', { name: `Open Group - ${tag}`, exact: true });
      if (await closed.count()) await closed.click();
    }
    const sidebar = (await page.getByRole('link').allInnerTexts()).join('\n');
    let operations = 0;
    for (const item of Object.values(doc.paths as Json)) {
      for (const op of Object.values(item as Json)) {
        assert.ok(sidebar.includes(op.summary), `the sidebar lists "${op.summary}"`);
        operations++;
      }
    }
    assert.ok(operations >= 30, `${operations} operations`);
    assert.deepEqual(blocked, []);
    assert.deepEqual(watch.consoleErrors, []);
    await context.close();
  });

  test('try-it-out sends the bearer key to this server and shows its answer', async () => {
    const { context, page } = await open(DESKTOP);
    await page.getByLabel('Bearer Token').first().fill(key);
    await page.getByRole('link', { name: /The calling key: plan, prefix/ }).click();
    await page
      .getByRole('button', { name: /Test Request/ })
      .first()
      .click();
    await page.getByRole('button', { name: `Send get request to ${ORIGIN}/api/v1/me` }).click();
    await page.getByText('200 OK').waitFor();
    const body = page.getByText(`"${key.slice(0, 12)}"`);
    await body.waitFor();
    assert.ok(await page.getByText('"business"').first().isVisible());
    const sent = watch.requests.filter((r) => r.url === `${ORIGIN}/api/v1/me`);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].authorization, `Bearer ${key}`);
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-try-it-out.png') });
    assert.deepEqual(blocked, []);
    assert.deepEqual(watch.consoleErrors, []);
    await context.close();
  });

  test('reads on a phone: no sideways scrolling, navigation behind its menu button', async () => {
    const { context, page } = await open(MOBILE);
    await page.getByText('Errors are RFC 9457 problem details').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone screen`);
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-mobile.png') });
    const giveaways = page.getByRole('button', { name: 'Open Group - giveaways', exact: true });
    assert.equal(await giveaways.isVisible(), false);
    await page.getByRole('button', { name: 'Open Menu' }).click();
    await giveaways.click();
    await page.getByRole('link', { name: /Create a giveaway/ }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-mobile-menu.png') });
    assert.deepEqual(blocked, []);
    assert.deepEqual(watch.consoleErrors, []);
    await context.close();
  });
});
