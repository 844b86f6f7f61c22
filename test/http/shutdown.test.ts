import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createConfig } from '../../src/config.ts';
import { createServices } from '../../src/services.ts';
import { openStore } from '../../src/store/store.ts';
import { bearer } from '../helpers/app.ts';
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
