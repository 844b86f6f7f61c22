import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import pino from 'pino';
import { COMMANDS } from '../../src/cli/main.ts';
import { createConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { draw, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import { runTyche } from '../helpers/cli.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';
import { storeTargets } from '../helpers/stores.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('tyche --version and --help', () => {
  test('--version prints the package version', async () => {
    for (const flag of ['--version', '-V', 'version']) {
      const res = await runTyche([flag], {});
      assert.equal(res.code, 0);
      assert.equal(res.stdout, `tyche ${version}\n`);
    }
  });

  test('every command and every command group has --help, exit 0', async () => {
    for (const command of COMMANDS) {
      const res = await runTyche([...command.name.split(' '), '--help'], {});
      assert.equal(res.code, 0, command.name);
      assert.match(res.stdout, new RegExp(`Usage: tyche ${command.name}`));
    }
    const groups = [
      ...new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0])),
    ];
    assert.deepEqual(groups.sort(), [
      'accounts',
      'jobs',
      'keys',
      'log',
      'log-key',
      'signing-key',
      'witness-key',
    ]);
    for (const group of groups) {
      const res = await runTyche([group, '--help'], {});
      assert.equal(res.code, 0, group);
      for (const c of COMMANDS.filter((c) => c.name.startsWith(`${group} `))) {
        assert.ok(res.stdout.includes(`tyche ${c.usage}`), c.name);
      }
      assert.ok(!res.stdout.includes('tyche serve'), 'only the group is listed');
    }
    // A group's name alone is incomplete: the list goes to stderr and the exit is 2.
    const bare = await runTyche(['keys'], {});
    assert.equal(bare.code, 2);
    assert.equal(bare.stdout, '');
    assert.match(bare.stderr, /tyche keys create/);
    const unknown = await runTyche(['keys', 'frobnicate'], {});
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^tyche: unknown command "keys frobnicate"/);
  });
});

describe('tyche serve fails fast with one line naming what to change', () => {
  test('a PostgreSQL host that never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket.on('error', () => {}));
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    try {
      const res = await runTyche(['serve'], {
        DATABASE_URL: `postgres://tyche:pw-not-shown@127.0.0.1:${port}/tyche`,
        TYCHE_DB_CONNECT_TIMEOUT_MS: '200',
      });
      assert.equal(res.code, 1);
      assert.equal(res.stdout, '');
      assert.equal(
        res.stderr,
        `tyche: cannot reach the PostgreSQL store at postgres://tyche:***@127.0.0.1:${port}/tyche (DATABASE_URL): no answer within 200 ms (TYCHE_DB_CONNECT_TIMEOUT_MS)\n`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  test('a port in use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-serve-'));
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    try {
      const res = await runTyche(['serve'], {
        DATA_DIR: dir,
        PORT: String(port),
        TYCHE_SOURCES: 'system',
        LOG_LEVEL: 'silent',
      });
      assert.equal(res.code, 1);
      assert.equal(
        res.stderr,
        `tyche serve: cannot listen on HOST=127.0.0.1 PORT=${port}: the address is already in use (another process listens there: pick another PORT)\n`,
      );
    } finally {
      taken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const [sqliteTarget] = await storeTargets();

describe('tyche backup', () => {
  test('copies a live SQLite store, WAL included; the copy restores a working server', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const opened = await sqliteTarget!.open();
    const t = await startTestApp({ opened, config: { PUBLIC_BASE_URL: base } });
    const work = mkdtempSync(join(tmpdir(), 'tyche-backup-'));
    try {
      const key = await t.key();
      const drawn = await draw(t, key, await readyGiveaway(t, key));
      assert.equal(drawn.statusCode, 200);
      const certificateId = drawn.json().certificate_id;

      // While a process has the store open, recent writes sit in tyche.sqlite-wal: copying the
      // main file alone loses them, which is why backups go through VACUUM INTO.
      const live = join(opened.env.DATA_DIR, 'tyche.sqlite');
      copyFileSync(live, join(work, 'plain-copy.sqlite'));
      const plain = new DatabaseSync(join(work, 'plain-copy.sqlite'));
      const tables = plain
        .prepare("select count(*) as n from sqlite_master where name = 'certificates'")
        .get();
      plain.close();
      assert.equal(tables?.n, 0, 'the plain copy misses what is still in the WAL');

      const file = join(work, 'tyche-backup.sqlite');
      const res = await runTyche(['backup', file], opened.env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(
        res.stdout,
        /^Backed up .*tyche\.sqlite to .*tyche-backup\.sqlite \(\d+ bytes, schema \d{3}-[a-z-]+\)\n$/,
      );
      assert.equal(statSync(file).mode & 0o777, 0o600);

      const again = await runTyche(['backup', file], opened.env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /exists already/);
      await t.app.close();

      // The documented restore: with the server stopped, the copy becomes DATA_DIR/tyche.sqlite.
      const restoredDir = join(work, 'restored');
      mkdirSync(restoredDir, { mode: 0o700 });
      copyFileSync(file, join(restoredDir, 'tyche.sqlite'));
      const server = await startServer(
        createConfig({
          DATA_DIR: restoredDir,
          PORT: String(port),
          PUBLIC_BASE_URL: base,
          TYCHE_SOURCES: 'system',
        }),
        pino({ level: 'silent' }),
      );
      try {
        const me = await fetch(`${base}/api/v1/me`, { headers: bearer(key) });
        assert.equal(me.status, 200);
        const verified = await runTyche(['verify', `${base}/verify/${certificateId}`], {});
        assert.equal(verified.code, 0, verified.stdout + verified.stderr);
        const log = await runTyche(['log', 'verify', `${base}/log`], {});
        assert.equal(log.code, 0, log.stdout + log.stderr);
      } finally {
        await server.stop();
      }
    } finally {
      await opened.cleanup().catch(() => {});
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('a missing store is an error, not an empty backup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-backup-'));
    try {
      const res = await runTyche(['backup', join(dir, 'out.sqlite')], { DATA_DIR: join(dir, 'none') });
      assert.equal(res.code, 1);
      assert.match(res.stderr, /there is no store at .*none\/tyche\.sqlite \(DATA_DIR\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const pgSkip = (await postgresUnavailable()) ?? (hasPgDump() ? undefined : 'pg_dump is not installed');

function hasPgDump(): boolean {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('PostgreSQL backup and restore with pg_dump', { skip: pgSkip }, () => {
  test('tyche backup points to pg_dump; the documented dump and restore bring the data back', async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'tyche-pgdump-'));
    try {
      const env = { DATA_DIR: dir, DATABASE_URL: source.url };
      const created = await runTyche(['keys', 'create', '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      const { key_prefix } = JSON.parse(created.stdout);

      const refused = await runTyche(['backup', join(dir, 'x')], env);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /for PostgreSQL \(DATABASE_URL\) use pg_dump --format=custom/);

      const dump = join(dir, 'tyche.dump');
      execFileSync('pg_dump', ['--format=custom', '--file', dump, source.url]);
      execFileSync('pg_restore', ['--no-owner', '--dbname', target.url, dump]);

      const restored = { DATA_DIR: dir, DATABASE_URL: target.url };
      const migrated = await runTyche(['migrate'], restored);
      assert.match(migrated.stdout, /Already up to date/);
      const listed = await runTyche(['keys', 'list', '--json'], restored);
      assert.deepEqual(
        JSON.parse(listed.stdout).map((k: { key_prefix: string }) => k.key_prefix),
        [key_prefix],
      );
    } finally {
      await source.drop();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
