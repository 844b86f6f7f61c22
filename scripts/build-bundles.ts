// Bundles the public pages' scripts and the standalone tyche-verify.mjs into dist/bundles/ (or
// the folder given as its argument), which the server serves as they are. npm runs it on
// `npm ci` (the `prepare` script); `npm run build` runs it again after a change to anything they
// bundle. What runs in a browser or under a participant's Node is the proof core itself,
// bundled, so no check has a second implementation.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import {
  BROWSER_SCRIPTS,
  BUNDLES_DIR,
  SERVED_BY_PLACEHOLDER,
  STANDALONE_VERIFIER,
} from '../src/web/browser-modules.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

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

interface Target {
  url: string;
  options: BuildOptions;
}

const TARGETS: Target[] = [
  ...BROWSER_SCRIPTS.map((script) => ({
    url: script.url,
    options: {
      entryPoints: [`src/${script.entry}`],
      platform: 'browser',
      target: ['es2022'],
    } as BuildOptions,
  })),
  {
    url: STANDALONE_VERIFIER.url,
    // One ESM file for Node >= 20 with every dependency inside.
    options: {
      entryPoints: [`src/${STANDALONE_VERIFIER.entry}`],
      platform: 'node',
      target: 'node20',
      banner: { js: STANDALONE_BANNER },
      define: { TYCHE_SERVED_BY: JSON.stringify(SERVED_BY_PLACEHOLDER) },
    },
  },
];

const OUT = process.argv[2] ?? join(ROOT, BUNDLES_DIR);
const fileOf = (url: string) => join(OUT, url);

/** esbuild, or undefined in an install without dev dependencies (`npm ci --omit=dev`). */
async function loadEsbuild(): Promise<typeof import('esbuild') | undefined> {
  try {
    return await import('esbuild');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

async function main(): Promise<number> {
  const esbuild = await loadEsbuild();
  if (!esbuild) {
    // Files left from an earlier install are another version's: removed, so that no server
    // serves them as this one's (it refuses to start instead, naming the command).
    rmSync(OUT, { recursive: true, force: true });
    process.stderr.write(
      `build-bundles: cannot build ${OUT}, which the server needs: esbuild, a dev dependency, is not installed. ` +
        'Install with `npm ci` (which builds them), then `npm prune --omit=dev` to drop the dev dependencies.\n',
    );
    return 1;
  }
  for (const target of TARGETS) {
    const result = await esbuild.build({ ...COMMON, ...target.options });
    const code = result.outputFiles?.[0]?.text;
    if (code === undefined) throw new Error(`esbuild wrote nothing for ${target.url}`);
    if (target.url === STANDALONE_VERIFIER.url && !code.includes(SERVED_BY_PLACEHOLDER)) {
      throw new Error(`${target.url} lost the placeholder of its server's address`);
    }
    const file = fileOf(target.url);
    mkdirSync(dirname(file), { recursive: true });
    // Written aside and renamed: a server or test reading it meanwhile sees the old file or the new one.
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, code);
    renameSync(aside, file);
  }
  await esbuild.stop();
  return 0;
}

process.exitCode = await main();
