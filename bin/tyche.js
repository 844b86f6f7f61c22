#!/usr/bin/env node
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
// The server runs for weeks: glibc's allocator must give back what a burst of large buffers
// took. By default it raises the size from which a block gets pages of its own each time such a
// block is freed, so after a PDF's font files or a batch of uploads it keeps large blocks in its
// heaps, where freed memory stays resident. Held at its initial 128 KiB, freed large blocks go
// back to the system (measured after the soak's mix: 144 MB against 160). glibc reads the setting
// once, at start, so `serve` restarts itself with it: execve, the same process (same pid, no
// parent left waiting). An operator's own setting is left alone.
if (
  process.argv[2] === 'serve' &&
  process.platform === 'linux' &&
  process.env.MALLOC_MMAP_THRESHOLD_ === undefined &&
  typeof process.execve === 'function'
) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_MMAP_THRESHOLD_: String(128 * 1024),
  });
}
// Imported only after the check: an older Node fails on the TypeScript before any line runs.
const { useTypeScriptCache } = await import('./typescript-cache.js');
useTypeScriptCache();
const { main } = await import('../src/cli/main.ts');
await main();
