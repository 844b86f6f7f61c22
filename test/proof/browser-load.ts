import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROOF_DIR = fileURLToPath(new URL('../../src/proof/', import.meta.url));
const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
/** Static imports and re-exports (at a line's start), bare imports and dynamic `import(…)`. */
const IMPORT =
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/gm;
/**
 * The only packages the proof core may use (the @noble primitives, and pkijs with asn1js for the
 * RFC 3161 tokens); everything else must come from src/proof itself.
 */
export const ALLOWED_PACKAGES = /^(@noble\/(curves|hashes)\/|pkijs$|asn1js$)/;
/** What those packages need to load, linked into the stripped copy's node_modules. */
const LINKED_PACKAGES = ['@noble', '@peculiar', 'pkijs', 'asn1js', 'bytestreamjs'];

export function importSpecifiers(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** Every .ts file reachable from `entry` by relative imports, `entry` first. */
export function moduleClosure(entry: string): string[] {
  const seen: string[] = [];
  const visit = (file: string) => {
    if (seen.includes(file)) return;
    seen.push(file);
    const source = readFileSync(file, 'utf8');
    for (const specifier of importSpecifiers(source)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
    }
  };
  visit(entry);
  return seen;
}

/**
 * Loads src/proof/<name>.ts the way a browser bundle sees it: type-stripped JavaScript in a folder
 * of its own (only the allowed packages resolvable), so a stray import or a TypeScript-only construct fails.
 */
export async function loadStripped<T>(name: string): Promise<{ module: T; dispose: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-proof-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  mkdirSync(join(dir, 'node_modules'));
  for (const name of LINKED_PACKAGES) symlinkSync(join(NODE_MODULES, name), join(dir, 'node_modules', name));
  for (const file of moduleClosure(join(PROOF_DIR, `${name}.ts`))) {
    const js = stripTypeScriptTypes(readFileSync(file, 'utf8'), { mode: 'strip' }).replace(
      /(['"])(\.{1,2}\/[^'"]+)\.ts\1/g,
      '$1$2.js$1',
    );
    const out = join(dir, relative(PROOF_DIR, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, js);
  }
  const module = (await import(pathToFileURL(join(dir, `${name}.js`)).href)) as T;
  return { module, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
