import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

/** Debian's chromium, headless, with nothing that reaches the network on its own. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const MOBILE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** What the pages of a test asked for and complained about, across every context it opens. */
export interface PageWatch {
  requests: { url: string; authorization: string | undefined }[];
  consoleErrors: string[];
}

export const newPageWatch = (): PageWatch => ({ requests: [], consoleErrors: [] });

/** A fresh context and page whose requests and console errors land in `watch`. */
export async function openWatched(
  browser: Browser,
  watch: PageWatch,
  viewport: typeof MOBILE,
  options: { javaScriptEnabled?: boolean; acceptDownloads?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    acceptDownloads: options.acceptDownloads ?? false,
  });
  context.on('request', async (request) => {
    // A request still in flight when its context closes has no headers left to read; its URL counts.
    const headers = await request.allHeaders().catch(() => ({}) as Record<string, string>);
    watch.requests.push({ url: request.url(), authorization: headers.authorization });
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => watch.consoleErrors.push(error.message));
  return { context, page };
}

/**
 * Unfolds the check list under a /verify verdict as a visitor does, by tapping its summary: on a
 * phone the checks fold when all passed. Says whether they were folded.
 */
export async function unfoldChecks(page: Page): Promise<boolean> {
  const details = page.locator('#verify-details');
  const folded = !(await details.evaluate((d) => (d as HTMLDetailsElement).open));
  if (folded) await details.locator('summary').click();
  return folded;
}

/**
 * Presses "Verify this draw" on an English /verify page and waits for the verdict, then unfolds
 * the checks to be read. Says whether they were folded, and how far below the verdict the
 * winners started before that (what a visitor sees first).
 */
export async function verifyThisDraw(page: Page): Promise<{ folded: boolean; winnersBelow: number }> {
  await page.getByRole('button', { name: 'Verify this draw' }).click();
  await page.locator('#verify-status.verdict').waitFor({ timeout: 30_000 });
  const winnersBelow = await page.evaluate(() => {
    const winners = document.getElementById('winners-heading')?.getBoundingClientRect().top;
    const verdict = document.getElementById('verify-status')?.getBoundingClientRect().bottom;
    return winners === undefined || verdict === undefined ? Number.NaN : winners - verdict;
  });
  return { folded: await unfoldChecks(page), winnersBelow };
}
