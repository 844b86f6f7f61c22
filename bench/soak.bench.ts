import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { runTyche } from '../test/helpers/cli.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import type { BenchResult } from './result.ts';

/** SOAK_S: how long the mixed load runs; ten minutes unless said otherwise. */
const SOAK_S = Number(process.env.SOAK_S ?? 600);
const CONNECTIONS = 8;

/** The resident set of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/**
 * Ten minutes of mixed traffic against one `tyche serve` on SQLite: random values, the giveaway
 * list, participant additions (new entrants every call, so the store grows throughout) and the
 * public verification page and PDF. The server's RSS is sampled every second; growth is measured
 * from the end of the first minute (JIT, caches and pools warm) to the end.
 */
export async function benchSoak(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-soak-'));
  const env = {
    DATA_DIR: join(dir, 'data'),
    TYCHE_SOURCES: 'system',
    TYCHE_PUBLIC_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
  };
  const server = await startServerProcess(env, { keepLogs: false });
  try {
    const created = await runTyche(['keys', 'create', '--json', '--daily-limit', '1000000000'], env);
    const key = JSON.parse(created.stdout).key as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json() as Promise<Record<string, string>>;
    };
    const open = await api('POST', '/giveaways', { title: 'Soak', winners_count: 3, draw_mode: 'instant' });
    const drawn = await api('POST', '/giveaways', {
      title: 'Soak drawn',
      winners_count: 3,
      draw_mode: 'instant',
    });
    await api('POST', `/giveaways/${drawn.public_id}/participants`, {
      participants: Array.from({ length: 500 }, (_, i) => ({ telegram_id: i + 1 })),
    });
    const certificate = (await api('POST', `/giveaways/${drawn.public_id}/draw`)).certificate_id;
    let nextId = 1;
    const samples: { at: number; mb: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(
      () => samples.push({ at: Date.now() - started, mb: rssMb(server.child.pid!) }),
      1000,
    );
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: SOAK_S,
      headers,
      requests: [
        { method: 'GET', path: '/api/v1/random/int?min=1&max=100&count=10' },
        { method: 'GET', path: '/api/v1/giveaways?limit=20' },
        {
          method: 'POST',
          path: `/api/v1/giveaways/${open.public_id}/participants`,
          setupRequest: (request) => {
            const participants = Array.from({ length: 10 }, () => ({ telegram_id: nextId++ }));
            return { ...request, body: JSON.stringify({ participants }) };
          },
        },
        { method: 'GET', path: `/verify/${certificate}` },
        { method: 'GET', path: `/verify/${certificate}.pdf` },
        {
          method: 'POST',
          path: '/api/v1/random/shuffle',
          body: JSON.stringify({ items: [1, 2, 3, 4, 5, 6, 7, 8] }),
        },
      ],
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
        notes: `${warm.mb.toFixed(0)} MB at ${(warm.at / 1000).toFixed(0)} s, ${last.mb.toFixed(0)} MB at the end, peak ${peak.toFixed(0)} MB; ${nextId - 1} entrants added`,
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
