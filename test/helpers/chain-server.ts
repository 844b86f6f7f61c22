import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/shared/clock.ts';
import { runTyche } from './cli.ts';
import { type FakeDrand, startFakeDrand } from './fake-upstreams.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

export interface ChainServer {
  server: ServerProcess;
  drand: FakeDrand;
  /** A directory of its own (the server's data lives in it). */
  dir: string;
  /** The owner's API, with a business key of its own; a non-2xx answer fails the test. */
  // biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field by each test
  call(method: string, path: string, body?: unknown): Promise<any>;
  stop(): Promise<void>;
}

/**
 * A real `tyche serve` on a local drand chain with real BLS signatures on the wall clock (real
 * processes cannot share a fake one), with a two-round seal delay so a round is out seconds later.
 */
export async function startChainServer(options: { period?: number; env?: Record<string, string> } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-chain-'));
  const drand = await startFakeDrand({ clock: systemClock, period: options.period });
  const env = {
    DATA_DIR: join(dir, 'data'),
    TYCHE_SOURCES: 'system',
    DRAND_URL: drand.url,
    DRAND_CHAIN: JSON.stringify(drand.info),
    TYCHE_SEAL_DELAY_ROUNDS: '2',
    ...options.env,
  };
  const server = await startServerProcess(env);
  const created = await runTyche(['keys', 'create', '--json'], env);
  assert.equal(created.code, 0, created.stderr);
  const headers = {
    authorization: `Bearer ${JSON.parse(created.stdout).key}`,
    'content-type': 'application/json',
  };
  const running: ChainServer = {
    server,
    drand,
    dir,
    async call(method, path, body) {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text);
    },
    async stop() {
      drand.withhold(undefined);
      await server.stop();
      await drand.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return running;
}
