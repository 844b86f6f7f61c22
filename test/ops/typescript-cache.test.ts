import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runProcess } from '../helpers/cli.ts';

const CACHE_MODULE = new URL('../../bin/typescript-cache.js', import.meta.url).href;

/**
 * A tree of its own: src/ with the given sources, and a script that turns the cache on for it,
 * as bin/tyche.js does, then imports `main` and prints what it exported and whether this
 * process loaded Node's type stripper.
 */
function tree() {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-ts-cache-'));
  mkdirSync(join(dir, 'src'));
  const run = join(dir, 'run.mjs');
  writeFileSync(
    run,
    `import { useTypeScriptCache } from ${JSON.stringify(CACHE_MODULE)};
useTypeScriptCache(new URL('./src/', import.meta.url), new URL('./cache/', import.meta.url));
const exported = await import(process.argv[2]);
const stripper = process.moduleLoadList.some((name) => name.includes('amaro'));
process.stdout.write(JSON.stringify({ ...exported, stripper }));
`,
  );
  return {
    dir,
    source: (name: string, text: string) => writeFileSync(join(dir, 'src', name), text),
    entries: () =>
      readdirSync(join(dir, 'cache'), { recursive: true }).filter((n) => String(n).endsWith('.js')),
    run: (name: string) =>
      runProcess(process.execPath, [run, pathToFileURL(join(dir, 'src', name)).href], {
        env: { PATH: process.env.PATH },
      }),
  };
}

test('sources are served stripped from the cache, so the process never loads the stripper; an edited source is stripped again', async () => {
  const t = tree();
  try {
    t.source('main.ts', "import { twice } from './twice.ts';\nexport const answer: number = twice(21);\n");
    t.source('twice.ts', 'export const twice = (n: number): number => n * 2;\n');
    const first = await t.run('main.ts');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { answer: 42, stripper: false });
    assert.equal(t.entries().length, 2);

    t.source('twice.ts', 'export const twice = (n: number): number => n * 3;\n');
    const second = await t.run('main.ts');
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(JSON.parse(second.stdout), { answer: 63, stripper: false });
    assert.equal(t.entries().length, 2, "the edited source's old entry is removed");
  } finally {
    rmSync(t.dir, { recursive: true, force: true });
  }
});

test('a source the stripper refuses fails to load as it does without the cache', async () => {
  const t = tree();
  try {
    t.source('main.ts', 'export enum Answer { Yes }\n');
    const res = await t.run('main.ts');
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX/);
  } finally {
    rmSync(t.dir, { recursive: true, force: true });
  }
});
