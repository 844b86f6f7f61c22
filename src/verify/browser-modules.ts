import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';

/** Where the browser modules live: /assets/js/<path>.js is src/<path>.ts. */
export const ASSET_PREFIX = '/assets/js/';

/**
 * The only source files a browser may load. The verification page runs the server's own draw,
 * canonical JSON and check code, type-stripped, so there is no second implementation to drift.
 */
const BROWSER_SOURCES = [
  'proof/draw-v1',
  'proof/draw-stream',
  'proof/sampling',
  'proof/hex',
  'proof/report',
  'proof/signed-body',
  'proof/verify-v1',
  'proof/canonical-json',
  'proof/sha256',
  'proof/verify-draw',
  'verify/verify-button',
] as const;

export const VERIFY_SCRIPT_URL = `${ASSET_PREFIX}verify/verify-button.js`;

const SRC_ROOT = new URL('../', import.meta.url);
const IMPORT_SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;
const cache = new Map<string, string>();

function resolve(fromPath: string, specifier: string): string {
  return new URL(specifier, `https://x/${fromPath}`).pathname.slice(1);
}

/**
 * The JavaScript for `/assets/js/<path>.js`, or undefined when the path is not a browser module.
 * Relative `.ts` imports become `.js` so the browser resolves them back to this same table.
 */
export function browserModule(path: string): string | undefined {
  const name = path.endsWith('.js') ? path.slice(0, -3) : undefined;
  if (!name || !(BROWSER_SOURCES as readonly string[]).includes(name)) return undefined;
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const source = readFileSync(new URL(`${name}.ts`, SRC_ROOT), 'utf8');
  const code = stripTypeScriptTypes(source, { mode: 'strip' }).replace(
    IMPORT_SPECIFIER,
    (_match, head: string, quote: string, specifier: string) => {
      const target = resolve(name, specifier);
      if (!(BROWSER_SOURCES as readonly string[]).includes(target)) {
        throw new Error(`${name}.ts imports ${target}.ts, which is not served to browsers`);
      }
      return `${head}${quote}${specifier}.js${quote}`;
    },
  );
  if (/\bfrom\s*['"](?!\.{1,2}\/)/.test(code)) {
    throw new Error(`${name}.ts imports a package; browser modules may import only each other`);
  }
  cache.set(name, code);
  return code;
}

export const browserModuleNames = (): readonly string[] => BROWSER_SOURCES;
