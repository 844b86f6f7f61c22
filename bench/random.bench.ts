import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runTyche } from '../test/helpers/cli.ts';
import { startFakeAnu } from '../test/helpers/fake-upstreams.ts';
import { createTestDatabase, postgresUnavailable } from '../test/helpers/postgres.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import { newestProfile, topEntries } from './cpu-profile.ts';
import type { BenchResult } from './result.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 10;
const INT = '/api/v1/random/int?min=1&max=1000000&count=100';
const BYTES = '/api/v1/random/bytes?n=1024';
const ME = '/api/v1/me';

interface Load {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

/**
 * `connections` spread over `urls` (one per server process), warmed up first so JIT and pools
 * settle. Several processes: throughput adds up, and the slowest process's percentiles stand.
 */
async function load(urls: string[], headers: Record<string, string>): Promise<Load> {
  const each = Math.ceil(CONNECTIONS / urls.length);
  const run = (duration: number) =>
    Promise.all(urls.map((url) => autocannon({ url, headers, connections: each, duration })));
  await run(2);
  const results = await run(DURATION_S);
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}

async function startReference() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./bare-server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: JSON.parse(line).url as string, stop: () => child.kill('SIGTERM') };
}

const rps = (l: Load) => `${l.rps.toFixed(0)} req/s`;
const latency = (l: Load) => `p50 ${l.p50} ms, p99 ${l.p99} ms`;

interface Reference {
  int: Load;
  bytes: Load;
}

/** The figures the targets name, for one store: int against the reference, bytes against /me. */
async function measureStack(
  label: string,
  urls: string[],
  key: string,
  reference: Reference,
): Promise<BenchResult[]> {
  const auth = { authorization: `Bearer ${key}` };
  const int = await load(
    urls.map((u) => u + INT),
    auth,
  );
  const bytes = await load(
    urls.map((u) => u + BYTES),
    auth,
  );
  const me = await load(
    urls.map((u) => u + ME),
    auth,
  );
  const intRatio = int.rps / reference.int.rps;
  const bytesRatio = bytes.rps / me.rps;
  return [
    {
      name: `${label}: int count=100 throughput / reference`,
      value: Number(intRatio.toFixed(2)),
      unit: '×',
      target: '≥ 0.50',
      met: intRatio >= 0.5,
      notes: `${rps(int)} against the reference's ${rps(reference.int)}; failed ${int.failed}`,
    },
    {
      name: `${label}: int count=100 p99 latency, ${CONNECTIONS} clients`,
      value: int.p99,
      unit: 'ms',
      target: '≤ 10 ms',
      met: int.p99 <= 10,
      notes: `p50 ${int.p50} ms (reference ${latency(reference.int)})`,
    },
    {
      name: `${label}: bytes n=1024 throughput / /me`,
      value: Number(bytesRatio.toFixed(2)),
      unit: '×',
      target: '≥ 0.70',
      met: bytesRatio >= 0.7,
      notes: `${rps(bytes)} (${latency(bytes)}) against /me's ${rps(me)} (${latency(me)}); ${(bytes.rps / reference.bytes.rps).toFixed(2)} of the reference's ${rps(reference.bytes)}; failed ${bytes.failed + me.failed}`,
    },
  ];
}

/** A key with a limit no run reaches, on the store `env` names. */
async function createKey(env: Record<string, string>): Promise<string> {
  const created = await runTyche(['keys', 'create', '--json', '--daily-limit', '1000000000'], env);
  if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  return JSON.parse(created.stdout).key as string;
}

/**
 * BENCH_CPU_PROF=<dir>: one more SQLite server per endpoint under the same load, profiled with
 * `node --cpu-prof`; the profiles stay in <dir> and their top self-time entries go to stderr.
 */
async function profile(dir: string, env: Record<string, string>, key: string): Promise<void> {
  for (const [name, path] of [
    ['int', INT],
    ['bytes', BYTES],
  ] as const) {
    const out = join(dir, name);
    mkdirSync(out, { recursive: true });
    const server = await startServerProcess(
      { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${out}` },
      { keepLogs: false },
    );
    await load([server.url + path], { authorization: `Bearer ${key}` });
    await server.stop();
    process.stderr.write(`\nCPU profile, ${path} (SQLite):\n${topEntries(newestProfile(out))}`);
  }
}

/**
 * The full stack (auth, daily limit, operations record, randomness) side by side with a
 * framework-free reference, with the fake ANU answering every call after 300 ms: SQLite with
 * one process, then PostgreSQL with two processes on one database.
 */
export async function benchRandomEndpoints(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-bench-'));
  const anu = await startFakeAnu();
  anu.setDelay(300);
  const common = { TYCHE_SOURCES: 'anu,system', ANU_QRNG_URL: anu.url };
  const reference = await startReference();
  const servers: ServerProcess[] = [];
  const results: BenchResult[] = [];
  try {
    const ref: Reference = {
      int: await load([reference.url + INT], {}),
      bytes: await load([reference.url + BYTES], {}),
    };
    const sqliteEnv = { ...common, DATA_DIR: join(dir, 'sqlite') };
    const sqliteKey = await createKey(sqliteEnv);
    // Default settings, request logging at the info level included, as an operator would run it.
    const sqlite = await startServerProcess(sqliteEnv, { keepLogs: false });
    servers.push(sqlite);
    results.push(...(await measureStack('SQLite, 1 process', [sqlite.url], sqliteKey, ref)));
    await sqlite.stop();

    const skip = await postgresUnavailable();
    if (skip) {
      process.stderr.write(`  PostgreSQL figures skipped: ${skip}\n`);
    } else {
      const database = await createTestDatabase();
      try {
        const pgEnv = { ...common, DATA_DIR: join(dir, 'pg'), DATABASE_URL: database.url };
        const pgKey = await createKey(pgEnv);
        const pgServers = [
          await startServerProcess(pgEnv, { keepLogs: false }),
          await startServerProcess(pgEnv, { keepLogs: false }),
        ];
        servers.push(...pgServers);
        const urls = pgServers.map((s) => s.url);
        results.push(...(await measureStack('PostgreSQL, 2 processes', urls, pgKey, ref)));
        for (const server of pgServers) await server.stop();
      } finally {
        await database.drop();
      }
    }
    if (process.env.BENCH_CPU_PROF) await profile(process.env.BENCH_CPU_PROF, sqliteEnv, sqliteKey);
  } finally {
    reference.stop();
    for (const server of servers) await server.stop();
    await anu.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
