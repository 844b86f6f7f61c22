// Node runs the sources with its built-in type stripper, a WebAssembly module that stays in the
// process once loaded, with the memory it grew while stripping every source: 15 to 20 MB of an
// idle server's resident set (measured: 126-130 MB without this cache, 109-112 MB with it; Node
// running an empty TypeScript file holds 59 MB, an empty script 42). Stripping gives the same
// JavaScript for the same source on the same Node (the stripper ships with Node), so it is done
// once: the stripped text of each source under src/ is kept in
// node_modules/.cache/tyche/typescript/, named by a hash of the Node version and the source's
// bytes, and read from there when Node loads the source. Sources not there yet are stripped first
// by a short-lived child process, so the process that keeps running never loads the stripper.
// Whatever the cache cannot serve (a source edited after the start, a cache that cannot be
// written) is left to Node's own stripping, as without the cache.
//
// The cache lives inside the installation, never in a shared temporary folder: what it holds
// runs as code.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCES = new URL('../src/', import.meta.url);
const CACHE = new URL('../node_modules/.cache/tyche/typescript/', import.meta.url);

/** The cache entry of a source: its stripped text depends on nothing else. */
const entryOf = (source) =>
  `${createHash('sha256').update(process.version).update('\0').update(source).digest('hex')}.js`;

/**
 * Brings the cache up to date with the sources under `sources` (a folder's file: URL) and has
 * Node load every source it holds from it.
 */
export function useTypeScriptCache(sources = SOURCES, cacheRoot = CACHE) {
  // One folder per source tree: trees that share node_modules (through a link) would otherwise
  // remove each other's entries.
  const hash = createHash('sha256').update(sources.href).digest('hex').slice(0, 16);
  const cache = join(fileURLToPath(cacheRoot), hash);
  try {
    update(fileURLToPath(sources), cache);
  } catch {
    // A cache that cannot be written (a read-only installation): what it holds is still served.
  }
  registerHooks({
    load(url, context, next) {
      if (!url.startsWith(sources.href) || !url.endsWith('.ts')) return next(url, context);
      let text;
      try {
        // Named by the bytes being loaded now: a source edited since the start is never served stale.
        text = readFileSync(join(cache, entryOf(readFileSync(fileURLToPath(url)))), 'utf8');
      } catch {
        return next(url, context);
      }
      return { format: 'module', source: text, shortCircuit: true };
    },
  });
}

function update(root, cache) {
  const wanted = new Map();
  for (const name of readdirSync(root, { recursive: true })) {
    if (!name.endsWith('.ts')) continue;
    const file = join(root, name);
    wanted.set(entryOf(readFileSync(file)), file);
  }
  mkdirSync(cache, { recursive: true });
  const present = new Set(readdirSync(cache));
  const missing = [...wanted].filter(([entry]) => !present.has(entry));
  if (missing.length > 0) {
    const child = spawnSync(process.execPath, ['--no-warnings', fileURLToPath(import.meta.url), cache], {
      input: JSON.stringify(missing),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    if (child.status !== 0) throw new Error(`stripping failed (${child.status ?? child.signal})`);
  }
  // Entries of sources that have since changed or gone.
  for (const name of present) {
    if (name.endsWith('.js') && !wanted.has(name)) rmSync(join(cache, name), { force: true });
  }
}

/** The child process: strips the sources it is given on stdin and writes their entries. */
function strip(cache, missing) {
  for (const [entry, file] of missing) {
    let text;
    try {
      text = stripTypeScriptTypes(readFileSync(file, 'utf8'));
    } catch {
      // Not strippable (syntax the stripper refuses): Node reports it when it loads the source.
      continue;
    }
    // Written whole or not at all: a process starting meanwhile never reads half an entry.
    const partial = join(cache, `${entry}.${process.pid}.partial`);
    writeFileSync(partial, text);
    renameSync(partial, join(cache, entry));
  }
}

if (import.meta.main) strip(process.argv[2], JSON.parse(readFileSync(0, 'utf8')));
