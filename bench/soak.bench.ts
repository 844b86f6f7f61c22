import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServerProcess } from '../test/helpers/server-process.ts';
import type { BenchResult } from './result.ts';
import { soakMix, treeRssMb } from './soak-mix.ts';

/** SOAK_S: how long the mixed load runs; ten minutes unless said otherwise. */
const SOAK_S = Number(process.env.SOAK_S ?? 600);
const CONNECTIONS = 8;

/**
 * Ten minutes of mixed traffic against one `tyche serve` on SQLite (soak-mix.ts). The server's
 * RSS is sampled every second; growth is measured from the end of the first minute (JIT, caches
 * and pools warm) to the end.
 */
export async function benchSoak(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-soak-'));
  const env = {
    DATA_DIR: join(dir, 'data'),
    TYCHE_SOURCES: 'system',
    TYCHE_PUBLIC_RATE_LIMIT: '0',
    TYCHE_TSA_URLS: '',
    LOG_LEVEL: 'warn',
  };
  // Started as `npm start` starts it (bin/tyche.js), as the memory benchmark does.
  const server = await startServerProcess(env, {
    keepLogs: false,
    entry: fileURLToPath(new URL('../bin/tyche.js', import.meta.url)),
  });
  try {
    const mix = await soakMix(server, env);
    const samples: { at: number; mb: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(
      () => samples.push({ at: Date.now() - started, mb: treeRssMb(server.child.pid!) }),
      1000,
    );
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: SOAK_S,
      headers: mix.headers,
      requests: mix.requests,
    });
    clearInterval(sampler);
    const warm = samples.find((s) => s.at >= Math.min(60_000, (SOAK_S * 1000) / 10)) ?? samples[0];
    const last = samples[samples.length - 1];
    const peak = Math.max(...samples.map((s) => s.mb));
    const growth = last.mb - warm.mb;
    const errors = result.errors + result.timeouts;
    const fiveHundreds = result['5xx'];
    return [
      {
        name: `soak, ${Number((SOAK_S / 60).toFixed(1))} min of mixed load (${CONNECTIONS} connections): throughput`,
        value: Math.round(result.requests.average),
        unit: 'req/s',
        target: 'reported',
        met: true,
        notes: `${result.requests.total} requests; p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
      },
      {
        name: 'soak: answers with a 5xx or no answer',
        value: fiveHundreds + errors,
        unit: '',
        target: '0',
        met: fiveHundreds + errors === 0,
        notes: `5xx ${fiveHundreds}, connection errors ${result.errors}, timeouts ${result.timeouts}; 4xx ${result['4xx']}`,
      },
      {
        name: 'soak: server RSS growth after the first minute',
        value: Number(growth.toFixed(1)),
        unit: 'MB',
        target: '< 50 MB',
        met: growth < 50,
        notes: `${warm.mb.toFixed(0)} MB at ${(warm.at / 1000).toFixed(0)} s, ${last.mb.toFixed(0)} MB at the end, peak ${peak.toFixed(0)} MB; ${mix.added()} entrants added`,
      },
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const SOAK_READING = `### Reading the soak figures

One \`tyche serve\` on SQLite, autocannon cycling through six requests on each of its
connections: \`/random/int\` (10 values), the giveaway list, an addition of 10 new entrants to
one giveaway (so the store grows throughout), the verification page and its PDF (rendered once,
then cached), and \`/random/shuffle\`. RSS is read from \`/proc\` every second. The load generator
shares the machine's two cores with the server. A leak shows as growth after the first minute,
when the JIT, the PDF cache, the prepared statements and SQLite's page cache have settled.
See also [reliability.md](reliability.md).
`;
