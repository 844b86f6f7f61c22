import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createConfig } from '../../src/config.ts';
import { createServices } from '../../src/services.ts';
import { openStore } from '../../src/store/store.ts';
import { bearer } from '../helpers/app.ts';
import { CLI } from '../helpers/cli.ts';
import { startFakeAnu } from '../helpers/fake-upstreams.ts';
import { startServerProcess } from '../helpers/server-process.ts';

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

test('SIGTERM during start-up is announced and honoured once started; a second one stops it at once', async () => {
  // A database host that accepts the connection and never answers holds the start in the store.
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const { port } = silent.address() as { port: number };
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      TYCHE_SOURCES: 'system',
      DATABASE_URL: `postgres://tyche@127.0.0.1:${port}/tyche`,
      TYCHE_DB_CONNECT_TIMEOUT_MS: '600000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit');
  try {
    // Connecting to the store comes after the signals are listened for.
    await once(silent, 'connection');
    child.kill('SIGTERM');
    while (!stderr.includes('SIGTERM during start-up')) await once(child.stderr!, 'data');
    assert.match(
      stderr,
      /tyche: SIGTERM during start-up: stopping once started \(send it again to stop at once\)/,
    );
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    assert.equal(code, null);
    assert.equal(signal, 'SIGTERM');
  } finally {
    child.kill('SIGKILL');
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});
