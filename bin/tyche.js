#!/usr/bin/env -S node --max-semi-space-size=8
// npm links `bin` entries by file name; this shim lets the TypeScript CLI run natively.
// It must itself run on any Node: a production install (`npm ci --omit=dev`) leaves out the
// pinned Node 24, so `npm start` may meet an older system Node, which cannot load the sources.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < REQUIRED_MAJOR) {
  process.stderr.write(
    `tyche: Node.js ${REQUIRED_MAJOR} or newer is required; this is ${process.version} (${process.execPath}).\n` +
      `Install Node.js ${REQUIRED_MAJOR}+ and put it first on PATH, or install with dev dependencies ` +
      '(npm ci), which brings Node 24 into node_modules/.bin for npm start. See docs/operations.md.\n',
  );
  process.exit(1);
}
// Imported only after the check: an older Node fails on the TypeScript before any line runs.
const { useTypeScriptCache } = await import('./typescript-cache.js');
useTypeScriptCache();
const { main } = await import('../src/cli/main.ts');
await main();
