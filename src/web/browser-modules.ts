// The scripts the public pages load, and the standalone verifier. Each is bundled from its entry
// file under src/ when the package is installed (scripts/build-bundles.ts, run by `npm ci`) into
// BUNDLES_DIR, and served from there (bundle.ts); a page's script goes in this table and nowhere else.

export const ASSET_PREFIX = '/assets/js/';

export interface BrowserScript {
  /** Where the page loads it: under ASSET_PREFIX, ending in .js. */
  url: string;
  /** Its entry file, relative to src/. */
  entry: string;
}

export const VERIFY_SCRIPT_URL = `${ASSET_PREFIX}verify/verify-button.js`;
/** Every public page's small script: local times beside UTC, the sealed page's countdown. */
export const PAGE_SCRIPT_URL = `${ASSET_PREFIX}page.js`;

export const BROWSER_SCRIPTS: readonly BrowserScript[] = [
  { url: VERIFY_SCRIPT_URL, entry: 'web/verify-page.client.ts' },
  { url: PAGE_SCRIPT_URL, entry: 'web/page.client.ts' },
  { url: `${ASSET_PREFIX}verify/receipt-page.js`, entry: 'web/receipt-page.client.ts' },
  { url: `${ASSET_PREFIX}app/app.js`, entry: 'web/app/app.client.ts' },
];

/** Where the standalone verifier is served (CONTRACT §1), and its entry file. */
export const STANDALONE_VERIFIER = {
  url: '/tyche-verify.mjs',
  entry: 'cli/verify/tyche-verify.main.ts',
} as const;

/** The built files, relative to the package root: each at its URL's path below it. */
export const BUNDLES_DIR = 'dist/bundles';

/** What builds them, for the message of a server that finds them missing. */
export const BUILD_COMMAND = 'npm run build';

/**
 * Stands in the built tyche-verify.mjs for the public address of the server that serves it (the
 * entry's TYCHE_SERVED_BY), as a string literal; each server puts its own address in its place.
 */
export const SERVED_BY_PLACEHOLDER = '__TYCHE_SERVED_BY__';
