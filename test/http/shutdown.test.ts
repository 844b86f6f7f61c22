import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createConfig } from '../../src/config.ts';
import { createServices } from '../../src/services.ts';
import { openStore } from '../../src/store/store.ts';
import { bearer } from '../helpers/app.ts';
import { startFakeAnu } from '../helpers/fake-upstreams.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';
import { spawnTyche, startServerProcess } from '../helpers/server-process.ts';

test('SIGTERM lets an in-flight request finish, then the process exits 0; keys never reach the log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-shutdown-'));
  const anu = await startFakeAnu();
  // The first ANU batch arrives late, so a request started now is still waiting when SIGTERM lands.
  anu.setDelay(1500);
  const env = { DATA_DIR: dir, TYCHE_SOURCES: 'anu', ANU_QRNG_URL: anu.url, TYCHE_TIME_BUDGET_MS: '10000' };
  const store = openStore(createConfig(env));
  await store.migrate();
  const key = (await createServices(createConfig(env), store).accounts.createKey({})).key;
  await store.close();
  const server = await startServerProcess(env);
  try {
    const pending = fetch(`${server.url}/api/v1/random/int?min=1&max=6`, {
      headers: { ...bearer(key), 'x-request-id': 'in-flight-1' },
    });
    while (!server.logs.some((line) => line.includes('in-flight-1'))) {
      await once(server.child.stdout!, 'data');
    }
    const exited = server.stop('SIGTERM');
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal((await res.json()).qrng_source, 'anu');
    assert.equal(await exited, 0);
    assert.ok(server.logs.some((line) => line.includes('shutting down')));
    assert.ok(!server.logs.some((line) => line.includes(key)), 'the key is never logged');
  } finally {
    await server.stop();
    await anu.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SIGTERM sent the moment the server says it is serving still stops it gracefully', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-shutdown-'));
  try {
    // Whoever waits for the line may signal at once; each start is a fresh chance to meet the gap.
    for (let start = 0; start < 3; start++) {
      const server = await startServerProcess({ DATA_DIR: dir, TYCHE_SOURCES: 'system' });
      assert.equal(await server.stop('SIGTERM'), 0);
      assert.ok(server.logs.some((line) => line.includes('shutting down')));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * `tyche serve` on a database URL whose host holds the start, with its output collected.
 * `announced` waits for the start-up signal's line on stderr, failing if the process ends first.
 */
function serveHeldAtStart(databaseUrl: string) {
  const child = spawnTyche({
    TYCHE_SOURCES: 'system',
    DATABASE_URL: databaseUrl,
    TYCHE_DB_CONNECT_TIMEOUT_MS: '600000',
  });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output.stderr += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const announced = async () => {
    const ended = exited.then(([code, signal]) => {
      throw new Error(`tyche serve ended (${code ?? signal}) before announcing the signal: ${output.stderr}`);
    });
    ended.catch(() => {});
    while (!output.stderr.includes('SIGTERM during start-up')) {
      await Promise.race([once(child.stderr!, 'data'), ended]);
    }
  };
  return { child, output, exited, announced };
}

test('SIGTERM during start-up is announced; a second one stops the process at once', async () => {
  // A database host that accepts the connection and never answers holds the start in the store.
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const { port } = silent.address() as { port: number };
  const { child, output, exited, announced } = serveHeldAtStart(`postgres://tyche@127.0.0.1:${port}/tyche`);
  try {
    // Connecting to the store comes after the signals are listened for.
    await once(silent, 'connection');
    child.kill('SIGTERM');
    await announced();
    assert.match(
      output.stderr,
      /tyche: SIGTERM during start-up: stopping once started \(send it again to stop at once\)/,
    );
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [null, 'SIGTERM']);
  } finally {
    child.kill('SIGKILL');
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});

test('SIGTERM during start-up stops the server gracefully once the start is done', {
  skip: await postgresUnavailable(),
}, async () => {
  const database = await createTestDatabase();
  const target = new URL(database.url);
  // A gate before the database: connections wait, their bytes held, until it opens.
  let open = false;
  const held: Socket[] = [];
  const pass = (client: Socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) socket.on('error', () => {});
  };
  const gate = createServer((client) => (open ? pass(client) : held.push(client)));
  gate.listen(0, '127.0.0.1');
  await once(gate, 'listening');
  const gated = new URL(database.url);
  gated.hostname = '127.0.0.1';
  gated.port = String((gate.address() as { port: number }).port);
  const { child, output, exited, announced } = serveHeldAtStart(gated.href);
  try {
    await once(gate, 'connection');
    child.kill('SIGTERM');
    await announced();
    open = true;
    for (const client of held.splice(0)) pass(client);
    const [code] = await exited;
    assert.equal(code, 0, output.stderr);
    const messages = output.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).msg as string);
    assert.ok(messages.includes('tyche is serving'), 'the start was completed');
    assert.ok(messages.includes('shutting down: finishing in-flight requests'), 'then it stopped gracefully');
  } finally {
    child.kill('SIGKILL');
    gate.close();
    await database.drop();
  }
});
