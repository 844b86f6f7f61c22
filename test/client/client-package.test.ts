import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLIENT_DIR } from '../../clients/typescript/scripts/generate.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { runProcess } from '../helpers/cli.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * npm with nothing of an outer `npm test` run (its npm_* settings), an empty cache of its own and
 * no network: what installs here installs from the tarballs alone.
 */
function npmEnv(cache: string): Record<string, string | undefined> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return {
    ...env,
    PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
    npm_config_cache: cache,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

async function npm(args: string[], cwd: string, cache: string) {
  const res = await runProcess('npm', args, { cwd, env: npmEnv(cache) });
  assert.equal(res.code, 0, `npm ${args.join(' ')}: ${res.stderr}`);
  return res;
}

const CONSUMER_TS = `import { createTycheClient, type Problem, type WebhookEvent } from '@tyche/client';

const client = createTycheClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'tk_example' });
const { data, error } = await client.GET('/api/v1/random/int', { params: { query: { min: 1, max: 6 } } });
const numbers: number[] | undefined = data?.numbers;
const problem: Problem | undefined = error;
const drawn: WebhookEvent<'giveaway.drawn'>['type'] = 'giveaway.drawn';
// @ts-expect-error min is an integer, not a string
await client.GET('/api/v1/random/int', { params: { query: { min: '1', max: 6 } } });
// @ts-expect-error no such path
await client.GET('/api/v1/nowhere');
export { numbers, problem, drawn };
`;

const CONSUMER_MJS = `import { createTycheClient } from '@tyche/client';

const client = createTycheClient({ baseUrl: process.env.TYCHE_URL, apiKey: process.env.TYCHE_KEY });
const me = await client.GET('/api/v1/me');
const created = await client.POST('/api/v1/giveaways', { body: { title: 'From the package', winners_count: 1 } });
console.log(JSON.stringify({ plan: me.data.plan, status: created.response.status, title: created.data.title }));
`;

/**
 * The README's TypeScript examples, each in a block of its own, with the names they take as
 * given declared: they are compiled against the installed package like any consumer's code.
 */
function readmeExamples(): string {
  const readme = readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 2, 'the README shows the client in use');
  const bodies = blocks.map((code) => `{\n${code.replace(/^import .*\n/gm, '')}}\n`);
  return [
    "import { createTycheClient } from '@tyche/client';",
    'declare const process: { env: Record<string, string | undefined> };',
    "const baseUrl = 'https://tyche.example.com';",
    "const apiKey = 'tk_example';",
    ...bodies,
    'export {};',
  ].join('\n');
}

let t: TestApp;
let work: string;
before(async () => {
  t = await startTestApp();
  work = mkdtempSync(join(tmpdir(), 'tyche-client-pack-'));
});
after(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

test('npm pack gives a package that installs offline in a fresh project, type-checks and calls a server', async () => {
  const cache = join(work, 'cache');
  const tarballs = join(work, 'tarballs');
  const project = join(work, 'project');
  mkdirSync(tarballs);
  mkdirSync(project);
  // Its one dependency (and that one's) are packed from this repository's install, so the fresh
  // project needs no registry.
  await npm(['pack', '--pack-destination', tarballs], CLIENT_DIR, cache);
  for (const dependency of ['openapi-fetch', 'openapi-typescript-helpers']) {
    await npm(
      ['pack', '--ignore-scripts', '--pack-destination', tarballs],
      join(ROOT, 'node_modules', dependency),
      cache,
    );
  }
  const packed = readdirSync(tarballs).sort();
  assert.equal(packed.length, 3);
  assert.ok(packed.includes('tyche-client-0.1.0.tgz'), packed.join(', '));

  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await npm(['install', ...packed.map((file) => join(tarballs, file))], project, cache);

  writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
  writeFileSync(join(project, 'readme.ts'), readmeExamples());
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
      },
      include: ['consumer.ts', 'readme.ts'],
    }),
  );
  const checked = await runProcess(process.execPath, [TSC, '-p', 'tsconfig.json'], {
    cwd: project,
    env: { PATH: process.env.PATH },
  });
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);

  writeFileSync(join(project, 'consumer.mjs'), CONSUMER_MJS);
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const ran = await runProcess(process.execPath, ['consumer.mjs'], {
    cwd: project,
    env: { PATH: process.env.PATH, TYCHE_URL: url, TYCHE_KEY: await t.key() },
  });
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(JSON.parse(ran.stdout), { plan: 'business', status: 201, title: 'From the package' });
});
