import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runTyche } from '../test/helpers/cli.ts';
import { startFakeAnu } from '../test/helpers/fake-upstreams.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import type { BenchResult } from './result.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 16;
const PATHS = ['/api/v1/random/int?min=1&max=1000000&count=100', '/api/v1/random/bytes?n=1024'];

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>, connections = CONNECTIONS): Promise<Load> {
  // Warm-up first so JIT and pools settle, then the measured run.
  await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration: DURATION_S });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function startBare() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./bare-server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: JSON.parse(line).url as string, stop: () => child.kill('SIGTERM') };
}

/**
 * Full stack (auth, daily limit, operations log, SQLite) against a bare Fastify route, side by
 * side in one run, with the fake ANU answering every call after 300 ms.
 */
export async function benchRandomEndpoints(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-bench-'));
  const anu = await startFakeAnu();
  anu.setDelay(300);
  const env = { DATA_DIR: dir, TYCHE_SOURCES: 'anu,system', ANU_QRNG_URL: anu.url };
  const created = await runTyche(['keys', 'create', '--json', '--daily-limit', '1000000000'], env);
  const key = JSON.parse(created.stdout).key as string;
  // Default settings, request logging at the info level included, as an operator would run it.
  const tyche = await startServerProcess(env, { keepLogs: false });
  const bare = await startBare();
  const results: BenchResult[] = [];
  try {
    for (const path of PATHS) {
      const auth = { authorization: `Bearer ${key}` };
      const full = await load(`${tyche.url}${path}`, auth);
      const ceiling = await load(`${bare.url}${path}`, {});
      // One connection: the latency of a request that does not queue behind others.
      const single = await load(`${tyche.url}${path}`, auth, 1);
      const ratio = full.rps / ceiling.rps;
      results.push(
        {
          name: `GET ${path}: p99 latency, one client (full stack, ANU 300 ms)`,
          value: single.p99,
          unit: 'ms',
          target: '< 10 ms',
          met: single.p99 < 10,
          notes: `p50 ${single.p50} ms, ${single.rps.toFixed(0)} req/s`,
        },
        {
          name: `GET ${path}: p99 latency, ${CONNECTIONS} clients (full stack, ANU 300 ms)`,
          value: full.p99,
          unit: 'ms',
          target: '< 10 ms',
          met: full.p99 < 10,
          notes: `p50 ${full.p50} ms; the server is saturated, so this is mostly queueing`,
        },
        {
          name: `GET ${path}: throughput, ${CONNECTIONS} clients (full stack)`,
          value: Math.round(full.rps),
          unit: 'req/s',
          target: '≥ 50% of bare',
          met: ratio >= 0.5,
          notes: `${(ratio * 100).toFixed(1)}% of the bare route's ${ceiling.rps.toFixed(0)} req/s (p50 ${ceiling.p50} ms, p99 ${ceiling.p99} ms); errors ${full.errors}, non-2xx ${full.non2xx}`,
        },
      );
    }
  } finally {
    bare.stop();
    await tyche.stop();
    await anu.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
