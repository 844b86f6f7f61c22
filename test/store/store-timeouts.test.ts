import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStore, StoreUnavailableError } from '../../src/store/store.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';
import { listen, stallingProxy } from './stalling-proxy.ts';

const PASSWORD = 'pw-never-shown';

/** A TCP server that accepts connections and never says a word, like a host behind a dropping firewall. */
async function silentServer() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  const port = await listen(server);
  return {
    port,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const oneLine = (error: unknown) => error instanceof Error && !error.message.includes('\n');

describe('opening the SQLite store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-open-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a new data directory and database file are the owner’s only', async () => {
    const dataDir = join(dir, 'data');
    const store = openStore({ DATA_DIR: dataDir });
    try {
      await store.migrate();
      assert.equal(statSync(dataDir).mode & 0o777, 0o700);
      assert.equal(statSync(join(dataDir, 'tyche.sqlite')).mode & 0o777, 0o600);
      assert.equal(statSync(join(dataDir, 'tyche.sqlite-wal')).mode & 0o777, 0o600);
    } finally {
      await store.close();
    }
  });

  test('a DATA_DIR that cannot hold the store fails with one line naming DATA_DIR', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    assert.throws(
      () => openStore({ DATA_DIR: file }),
      (error: unknown) =>
        error instanceof StoreUnavailableError &&
        error.message.startsWith(
          `cannot open the SQLite store at ${join(file, 'tyche.sqlite')} (DATA_DIR): `,
        ) &&
        oneLine(error),
    );
  });
});

const pgSkip = await postgresUnavailable();

describe('PostgreSQL timeouts', { skip: pgSkip }, () => {
  test('a host that never answers fails the start within the connect timeout, without the password', async () => {
    const silent = await silentServer();
    const store = openStore({
      DATA_DIR: '.',
      DATABASE_URL: `postgres://tyche:${PASSWORD}@127.0.0.1:${silent.port}/tyche`,
      TYCHE_DB_CONNECT_TIMEOUT_MS: 200,
    });
    const started = performance.now();
    try {
      await assert.rejects(store.migrate(), (error: unknown) => {
        assert.ok(error instanceof StoreUnavailableError, String(error));
        assert.equal(
          error.message,
          `cannot reach the PostgreSQL store at postgres://tyche:***@127.0.0.1:${silent.port}/tyche (DATABASE_URL): no answer within 200 ms (TYCHE_DB_CONNECT_TIMEOUT_MS)`,
        );
        return true;
      });
      assert.ok(performance.now() - started < 3000, 'the connect timeout bounds the wait');
      assert.ok(!store.location.includes(PASSWORD));
    } finally {
      await store.close();
      silent.close();
    }
  });

  test('a refused connection is reported the same way', async () => {
    const closed = createServer();
    const port = await listen(closed);
    closed.close();
    await once(closed, 'close');
    const store = openStore({
      DATA_DIR: '.',
      DATABASE_URL: `postgres://tyche:${PASSWORD}@127.0.0.1:${port}/x`,
    });
    try {
      await assert.rejects(
        store.migrate(),
        (error: unknown) =>
          error instanceof StoreUnavailableError &&
          /^cannot reach the PostgreSQL store at .*\(DATABASE_URL\): .*ECONNREFUSED/.test(error.message) &&
          !error.message.includes(PASSWORD) &&
          oneLine(error),
      );
    } finally {
      await store.close();
    }
  });

  test('the server cancels a statement that runs past the statement timeout', async () => {
    const database = await createTestDatabase();
    const store = openStore({
      DATA_DIR: '.',
      DATABASE_URL: database.url,
      TYCHE_DB_STATEMENT_TIMEOUT_MS: 200,
    });
    try {
      await store.migrate();
      const started = performance.now();
      await assert.rejects(sql`select pg_sleep(5)`.execute(store.db), { code: '57014' });
      assert.ok(performance.now() - started < 2000);
      await store.ping();
    } finally {
      await store.close();
      await database.drop();
    }
  });

  test('a server that stops answering mid-session fails queries in time; the pool recovers', async () => {
    const database = await createTestDatabase();
    const proxy = await stallingProxy(new URL(database.url));
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const store = openStore({
      DATA_DIR: '.',
      DATABASE_URL: url.toString(),
      TYCHE_DB_STATEMENT_TIMEOUT_MS: 200,
    });
    try {
      await store.ping();
      proxy.hang(true);
      const started = performance.now();
      await assert.rejects(store.ping(), {
        message: 'PostgreSQL did not answer within 400 ms',
        code: 'ETIMEDOUT',
      });
      // 200 ms on the server's side, as long again on the client's for a server that is silent.
      const waited = performance.now() - started;
      assert.ok(waited >= 350 && waited < 2000, `waited ${waited} ms`);
      proxy.hang(false);
      // The stalled connection was dropped, so the next query gets a fresh one instead of queueing.
      await store.ping();
    } finally {
      await store.close();
      proxy.close();
      await database.drop();
    }
  });
});

describe('a SQLite store locked by another process', () => {
  test('opening gives up after the statement timeout with one line naming the setting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-locked-'));
    const path = join(dir, 'tyche.sqlite');
    new DatabaseSync(path).close();
    // Another process's write lock: a child holds an exclusive transaction until told to stop.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(${JSON.stringify(path)});
         db.exec('begin exclusive');
         process.stdout.write('locked\\n');
         process.stdin.on('data', () => { db.exec('rollback'); process.exit(0); });`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      await once(holder.stdout!, 'data');
      assert.throws(
        () => openStore({ DATA_DIR: dir, TYCHE_DB_STATEMENT_TIMEOUT_MS: 100 }),
        (error: unknown) =>
          error instanceof StoreUnavailableError &&
          error.message ===
            `cannot open the SQLite store at ${path} (DATA_DIR): another process held its lock for more than 100 ms (TYCHE_DB_STATEMENT_TIMEOUT_MS)` &&
          oneLine(error),
      );
    } finally {
      holder.stdin!.write('\n');
      await once(holder, 'exit');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
