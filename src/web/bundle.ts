// The public pages' scripts and the standalone tyche-verify.mjs, bundled when the package is
// installed (scripts/build-bundles.ts, run by `npm ci`): a server reads each file on first use
// and keeps it, so no process carries a bundler.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BROWSER_SCRIPTS,
  BUILD_COMMAND,
  BUNDLES_DIR,
  SERVED_BY_PLACEHOLDER,
  STANDALONE_VERIFIER,
} from './browser-modules.ts';

export interface Bundle {
  code: Buffer;
  /** A strong validator of `code`, for If-None-Match. */
  etag: string;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = join(ROOT, BUNDLES_DIR);

/** The built file of what is served at `url`. */
const bundleFile = (url: string, dir = BUILT) => join(dir, url);

/** Stops a start whose bundles were never built (in `dir`), naming the command that builds them. */
export function checkBundlesBuilt(dir = BUILT): void {
  const urls = [...BROWSER_SCRIPTS.map((s) => s.url), STANDALONE_VERIFIER.url];
  const missing = urls.map((url) => bundleFile(url, dir)).find((file) => !existsSync(file));
  if (missing !== undefined) {
    throw new Error(
      `the pages' scripts and tyche-verify.mjs are not built (${missing} is missing): run \`${BUILD_COMMAND}\` in ${ROOT} (npm ci runs it too)`,
    );
  }
}

const cache = new Map<string, Promise<Bundle>>();

function cached(key: string, make: () => Promise<string>): Promise<Bundle> {
  let pending = cache.get(key);
  if (!pending) {
    pending = make().then((text) => {
      const code = Buffer.from(text);
      return { code, etag: `"${createHash('sha256').update(code).digest('base64url')}"` };
    });
    cache.set(key, pending);
    // A failed read is tried again by the next request rather than remembered.
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

/** The bundle served at `url`, or undefined when no page script is registered there. */
export function browserScript(url: string): Promise<Bundle> | undefined {
  const script = BROWSER_SCRIPTS.find((s) => s.url === url);
  if (!script) return undefined;
  return cached(`browser ${script.url}`, () => readFile(bundleFile(script.url), 'utf8'));
}

/**
 * tyche-verify.mjs: one ESM file for Node >= 20 with every dependency inside. `servedBy` is the
 * public address of the serving instance, the default server for a bare certificate id.
 */
export function standaloneVerifier(servedBy: string): Promise<Bundle> {
  return cached(`standalone ${servedBy}`, async () => {
    const built = await readFile(bundleFile(STANDALONE_VERIFIER.url), 'utf8');
    // A function, so that a `$` in the address is not read as a replacement pattern.
    return built.replaceAll(JSON.stringify(SERVED_BY_PLACEHOLDER), () => JSON.stringify(servedBy));
  });
}
