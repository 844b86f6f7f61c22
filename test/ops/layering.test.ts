import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../helpers/cli.ts';

// The rules of .dependency-cruiser.cjs run over the real tree in `npm test` (npm run check);
// these tests show that each kind of drift is caught and named, on small trees made for it.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

const work = mkdtempSync(join(tmpdir(), 'tyche-layering-'));
after(() => rmSync(work, { recursive: true, force: true }));

let trees = 0;
/** Writes a tree of files (path → source) and runs the rules over its src/. */
async function cruise(files: Record<string, string>) {
  const dir = join(work, String(trees++));
  const all = { 'tsconfig.json': '{ "compilerOptions": { "allowImportingTsExtensions": true } }', ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return runProcess(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err'], {
    cwd: dir,
    env: { PATH: process.env.PATH },
  });
}

describe('the layering rules', () => {
  test('an import from a lower room to a higher one fails with the rule that names the room', async () => {
    const res = await cruise({
      'src/giveaways/a.ts': 'export const a = 1;\n',
      'src/store/b.ts': "import { a } from '../giveaways/a.ts';\nexport const b = a;\n",
    });
    assert.notEqual(res.code, 0);
    assert.match(res.stdout, /no-upward-import:store/);
    assert.match(res.stdout, /store-imports-no-feature/);
  });

  test('a circle between files fails as no-circular, between folders as no-circular-folders', async () => {
    const res = await cruise({
      'src/log/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'src/log/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'src/cli/x/c.ts': "import { d } from '../y/d.ts';\nexport const c = () => d;\n",
      'src/cli/y/d.ts': "import { e } from '../x/e.ts';\nexport const d = () => e;\n",
      'src/cli/x/e.ts': 'export const e = 1;\n',
    });
    assert.notEqual(res.code, 0);
    assert.match(res.stdout, /error no-circular: src\/log\//);
    assert.match(res.stdout, /error no-circular-folders: src\/cli\//);
  });

  test('proof/ imports nothing outside proof/, and config only reaches the root and the CLI', async () => {
    const res = await cruise({
      'src/shared/clock.ts': 'export const now = () => 0;\n',
      'src/proof/p.ts': "import { now } from '../shared/clock.ts';\nexport const p = now;\n",
      'src/config.ts': 'export const config = {};\n',
      'src/http/app.ts': "import { config } from '../config.ts';\nexport const app = config;\n",
    });
    assert.notEqual(res.code, 0);
    assert.match(res.stdout, /proof-is-pure: src\/proof\/p\.ts/);
    assert.match(res.stdout, /no-root-import: src\/http\/app\.ts/);
  });

  test('routes and bot composers never import a repository', async () => {
    const res = await cruise({
      'src/accounts/account.repository.ts': 'export const rows = [];\n',
      'src/http/routes/me.routes.ts':
        "import { rows } from '../../accounts/account.repository.ts';\nexport const r = rows;\n",
      'src/bot/keys/keys.composer.ts':
        "import { rows } from '../../accounts/account.repository.ts';\nexport const k = rows;\n",
    });
    assert.notEqual(res.code, 0);
    assert.match(res.stdout, /edge-never-imports-repositories: src\/http\/routes\/me\.routes\.ts/);
    assert.match(res.stdout, /edge-never-imports-repositories: src\/bot\/keys\/keys\.composer\.ts/);
  });
});
