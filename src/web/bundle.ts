// The public pages' scripts and the standalone tyche-verify.mjs, bundled by esbuild in memory
// once per process and then served from memory. What runs in a browser or under a participant's
// Node is the proof core itself, bundled, so no check has a second implementation to drift.

import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { BROWSER_SCRIPTS, STANDALONE_VERIFIER } from './browser-modules.ts';

export interface Bundle {
  code: string;
  /** A strong validator of `code`, for If-None-Match. */
  etag: string;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BROWSER_TARGET = ['es2022'];

const COMMON: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  write: false,
  format: 'esm',
  charset: 'utf8',
  legalComments: 'eof',
  logLevel: 'silent',
  // Left readable on purpose: whoever runs a verifier may want to read what it does.
  minify: false,
};

const STANDALONE_BANNER = `#!/usr/bin/env node
// tyche-verify.mjs: checks Tyche draw certificates and entrant receipts with plain Node.js 20 or
// newer, nothing to install. Run: node tyche-verify.mjs --help`;

const cache = new Map<string, Promise<Bundle>>();

async function compile(options: BuildOptions): Promise<Bundle> {
  const result = await build({ ...COMMON, ...options });
  const code = result.outputFiles?.[0]?.text;
  if (code === undefined) throw new Error(`esbuild wrote nothing for ${String(options.entryPoints)}`);
  const digest = createHash('sha256').update(code).digest('base64url');
  return { code, etag: `"${digest}"` };
}

function cached(key: string, make: () => Promise<Bundle>): Promise<Bundle> {
  let pending = cache.get(key);
  if (!pending) {
    pending = make();
    cache.set(key, pending);
    // A failed build is tried again by the next request rather than remembered.
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

/** The bundle served at `url`, or undefined when no page script is registered there. */
export function browserScript(url: string): Promise<Bundle> | undefined {
  const script = BROWSER_SCRIPTS.find((s) => s.url === url);
  if (!script) return undefined;
  return cached(`browser ${script.url}`, () =>
    compile({ entryPoints: [`src/${script.entry}`], platform: 'browser', target: BROWSER_TARGET }),
  );
}

/**
 * tyche-verify.mjs: one ESM file for Node >= 20 with every dependency inside. `servedBy` is the
 * public address of the serving instance, the default server for a bare certificate id.
 */
export function standaloneVerifier(servedBy: string): Promise<Bundle> {
  return cached(`standalone ${servedBy}`, () =>
    compile({
      entryPoints: [`src/${STANDALONE_VERIFIER.entry}`],
      platform: 'node',
      target: 'node20',
      banner: { js: STANDALONE_BANNER },
      define: { TYCHE_SERVED_BY: JSON.stringify(servedBy) },
    }),
  );
}

/** Builds everything served, so a script that cannot be bundled shows at once. */
export async function buildAll(servedBy: string): Promise<void> {
  await Promise.all([...BROWSER_SCRIPTS.map((s) => browserScript(s.url)), standaloneVerifier(servedBy)]);
}
