import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

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
