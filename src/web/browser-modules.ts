// The scripts the public pages load. Each is bundled from its entry file under src/ (see
// bundle.ts) and served at its URL; a page's script goes in this table and nowhere else.

export const ASSET_PREFIX = '/assets/js/';

export interface BrowserScript {
  /** Where the page loads it: under ASSET_PREFIX, ending in .js. */
  url: string;
  /** Its entry file, relative to src/. */
  entry: string;
}

export const VERIFY_SCRIPT_URL = `${ASSET_PREFIX}verify/verify-button.js`;

export const BROWSER_SCRIPTS: readonly BrowserScript[] = [
  { url: VERIFY_SCRIPT_URL, entry: 'web/verify-page.client.ts' },
  { url: `${ASSET_PREFIX}verify/receipt-page.js`, entry: 'web/receipt-page.client.ts' },
];

/** Where the standalone verifier is served (CONTRACT §1), and its entry file. */
export const STANDALONE_VERIFIER = {
  url: '/tyche-verify.mjs',
  entry: 'cli/verify/tyche-verify.main.ts',
} as const;
