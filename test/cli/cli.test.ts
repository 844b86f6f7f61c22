import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess, runTyche, runTycheProcess } from '../helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

const BIN = fileURLToPath(new URL('../../bin/tyche.js', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

for (const target of await storeTargets()) {
  describe(`tyche CLI on ${target.dialect}`, { skip: target.skip }, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    // The server is a process of its own, as in production: the commands below run in this
    // process, and a second SQLite handle in the server's process could wait on its own lock.
    let server: ServerProcess;
    before(async () => {
      const opened = await target.open();
      await opened.store.close();
      env = { ...opened.env };
      cleanup = opened.cleanup;
      server = await startServerProcess({ ...env, TYCHE_SOURCES: 'system' });
    });
    after(async () => {
      await server?.stop();
      await cleanup?.().catch(() => {});
    });

    const me = (key: string) =>
      fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });

    test('keys create --json prints exactly one object, and the running server accepts the key', async () => {
      const res = await runTyche(['keys', 'create', '--json', '--label', 'ci', '--daily-limit', '5'], env);
      assert.equal(res.code, 0, res.stderr);
      const lines = res.stdout.trim().split('\n');
      assert.equal(lines.length, 1);
      const created = JSON.parse(lines[0]);
      assert.deepEqual(Object.keys(created).sort(), [
        'account_id',
        'daily_limit',
        'key',
        'key_prefix',
        'plan',
      ]);
      assert.equal(created.plan, 'business');
      assert.equal(created.daily_limit, 5);
      assert.equal(created.key_prefix, created.key.slice(0, 12));
      assert.ok(created.key.length >= 46);
      const response = await me(created.key);
      assert.equal(response.status, 200);
      assert.equal((await response.json()).label, 'ci');
    });

    test('without --json the key goes to stdout alone, the notice to stderr', async () => {
      const res = await runTyche(['keys', 'create', '--plan', 'pro'], env);
      assert.equal(res.code, 0);
      assert.match(res.stdout, /^tk_[A-Za-z0-9_-]{43}\n$/);
      assert.match(res.stderr, /shown only this once/);
    });

    test('without --owner each call makes a new account; with --owner keys share one and --plan sets it', async () => {
      const a = JSON.parse((await runTyche(['keys', 'create', '--json'], env)).stdout);
      const b = JSON.parse((await runTyche(['keys', 'create', '--json'], env)).stdout);
      assert.notEqual(a.account_id, b.account_id);
      const c = JSON.parse(
        (await runTyche(['keys', 'create', '--json', '--owner', '777000', '--plan', 'free'], env)).stdout,
      );
      const d = JSON.parse(
        (await runTyche(['keys', 'create', '--json', '--owner', '777000', '--plan', 'business'], env)).stdout,
      );
      assert.equal(c.account_id, d.account_id);
      assert.equal((await (await me(c.key)).json()).plan, 'business');
    });

    test('keys list never prints a key; revoke applies to the running server at once', async () => {
      const created = JSON.parse((await runTyche(['keys', 'create', '--json'], env)).stdout);
      assert.equal((await me(created.key)).status, 200);
      const list = await runTyche(['keys', 'list', '--json'], env);
      assert.equal(list.code, 0);
      assert.ok(!list.stdout.includes(created.key));
      const row = JSON.parse(list.stdout).find(
        (k: { key_prefix: string }) => k.key_prefix === created.key_prefix,
      );
      assert.equal(row.revoked_at, null);
      const table = await runTyche(['keys', 'list'], env);
      assert.match(table.stdout, new RegExp(`${created.key_prefix.replace(/[-_]/g, '.')}\\tbusiness`));
      const revoke = await runTyche(['keys', 'revoke', created.key_prefix], env);
      assert.equal(revoke.code, 0, revoke.stderr);
      assert.equal((await me(created.key)).status, 401);
      const again = await runTyche(['keys', 'revoke', created.key_prefix], env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /No active key/);
    });

    test('accounts plan changes the plan seen by the running server', async () => {
      const created = JSON.parse(
        (await runTyche(['keys', 'create', '--json', '--owner', '555001'], env)).stdout,
      );
      const res = await runTyche(['accounts', 'plan', '555001', 'pro'], env);
      assert.equal(res.code, 0, res.stderr);
      assert.equal((await (await me(created.key)).json()).plan, 'pro');
    });

    test('--help for every command', async () => {
      for (const args of [
        ['serve'],
        ['migrate'],
        ['keys', 'create'],
        ['keys', 'list'],
        ['keys', 'revoke'],
        ['accounts', 'plan'],
      ]) {
        const res = await runTyche([...args, '--help'], env);
        assert.equal(res.code, 0, args.join(' '));
        assert.match(res.stdout, new RegExp(`Usage: tyche ${args.join(' ')}`));
      }
      const overview = await runTyche(['--help'], env);
      assert.equal(overview.code, 0);
      assert.match(overview.stdout, /keys create/);
    });

    test('bad input goes to stderr with a non-zero exit and changes nothing', async () => {
      const before = JSON.parse((await runTyche(['keys', 'list', '--json'], env)).stdout).length;
      const cases: [string[], RegExp][] = [
        [['keys', 'create', '--plan', 'gold'], /plan must be one of free, pro, business/],
        [['keys', 'create', '--daily-limit', '0'], /--daily-limit must be a positive integer/],
        [['keys', 'create', '--owner', 'abc'], /--owner must be a positive integer/],
        [['keys', 'create', '--bogus'], /Unknown option '--bogus'/],
        [['keys', 'revoke'], /exactly one KEY_PREFIX/],
        [['accounts', 'plan', '12'], /TELEGRAM_ID and PLAN/],
        [['accounts', 'plan', '12', 'gold'], /plan must be one of/],
        [['frobnicate'], /unknown command/],
      ];
      for (const [args, message] of cases) {
        const res = await runTyche(args, env);
        assert.notEqual(res.code, 0, args.join(' '));
        assert.equal(res.stdout, '');
        assert.match(res.stderr, message);
      }
      const badEnv = await runTyche(['keys', 'list'], { ...env, PORT: 'x' });
      assert.equal(badEnv.code, 2);
      assert.match(badEnv.stderr, /^tyche: PORT="x" is not valid/);
      assert.equal(JSON.parse((await runTyche(['keys', 'list', '--json'], env)).stdout).length, before);
    });

    test('as a real process: the bin shim and the exit status reach the shell', async () => {
      const shown = await runProcess(process.execPath, [BIN, '--version'], {
        env: { PATH: process.env.PATH },
      });
      assert.equal(shown.code, 0);
      assert.equal(shown.stdout, `tyche ${version}\n`);
      const created = await runTycheProcess(['keys', 'create', '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      assert.equal((await me(JSON.parse(created.stdout).key)).status, 200);
      const badEnv = await runTycheProcess(['keys', 'list'], { ...env, PORT: 'x' });
      assert.equal(badEnv.code, 2);
      assert.equal(badEnv.stdout, '');
      assert.match(badEnv.stderr, /^tyche: PORT="x" is not valid/);
    });

    test('migrate reports an up-to-date store', async () => {
      const res = await runTyche(['migrate'], env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /Already up to date/);
    });
  });
}
