import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { PDF_WORKER_IDLE_MS } from '../src/pdf/pdf-renderer.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import type { BenchResult } from './result.ts';
import { soakMix, treeRssMb } from './soak-mix.ts';

/** MEMORY_MIX_S: how long the soak's mix runs; IDLE_S: how long the server is left alone before a reading. */
const MIX_S = Number(process.env.MEMORY_MIX_S ?? 60);
const IDLE_S = Number(process.env.IDLE_S ?? 30);
const PDF_WORKER_IDLE_S = PDF_WORKER_IDLE_MS / 1000;
const CONNECTIONS = 8;
const ENTRANTS = 1_000_000;
/** The most one request may add (the participants schema's maxItems). */
const PER_REQUEST = 10_000;

/** RSS (MB, children included) after IDLE_S seconds without requests, and the lowest seen meanwhile. */
async function idleRss(pid: number): Promise<{ mb: number; low: number }> {
  let low = Number.POSITIVE_INFINITY;
  for (let s = 0; s < IDLE_S; s++) {
    await sleep(1000);
    low = Math.min(low, treeRssMb(pid));
  }
  return { mb: treeRssMb(pid), low };
}

const mb = (value: number) => `${value.toFixed(0)} MB`;

/**
 * The resident memory of one `tyche serve` on SQLite: left alone after its start, after one
 * giveaway was given a million entrants through the API, then after a minute of the soak's mix.
 * Each reading is taken once the server has had IDLE_S seconds without a request.
 */
export async function benchMemory(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-memory-'));
  // No outside timestamps: nothing in a benchmark may wait on the internet.
  const env = {
    DATA_DIR: join(dir, 'data'),
    TYCHE_SOURCES: 'system',
    TYCHE_PUBLIC_RATE_LIMIT: '0',
    TYCHE_TSA_URLS: '',
  };
  const server = await startServerProcess(env, { keepLogs: false });
  const pid = server.child.pid!;
  try {
    const idle = await idleRss(pid);
    const mix = await soakMix(server, env);
    const big = await mix.api('POST', '/giveaways', {
      title: 'A million',
      winners_count: 10,
      draw_mode: 'instant',
    });
    const started = performance.now();
    for (let from = 1; from <= ENTRANTS; from += PER_REQUEST) {
      const participants = Array.from({ length: PER_REQUEST }, (_, i) => ({
        telegram_id: 10_000_000 + from + i,
      }));
      const added = await mix.api('POST', `/giveaways/${big.public_id}/participants`, { participants });
      if (added.error) throw new Error(`adding entrants failed: ${JSON.stringify(added)}`);
    }
    const addSeconds = (performance.now() - started) / 1000;
    const afterEntrants = await idleRss(pid);
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treeRssMb(pid));
    }, 1000);
    const load = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: MIX_S,
      headers: mix.headers,
      requests: mix.requests,
    });
    clearInterval(sampler);
    const afterMix = await idleRss(pid);
    const growth = afterEntrants.mb - idle.mb;
    return [
      {
        name: 'memory: RSS of an idle server after its start',
        value: Number(idle.mb.toFixed(1)),
        unit: 'MB',
        target: '≤ 100 MB',
        met: idle.mb <= 100,
        notes: `read after ${IDLE_S} s without requests (lowest meanwhile ${mb(idle.low)})`,
      },
      {
        name: `memory: RSS after ${ENTRANTS.toLocaleString('en')} entrants were added, then idle, above the idle start`,
        value: Number(growth.toFixed(1)),
        unit: 'MB',
        target: '≤ 50 MB',
        met: growth <= 50,
        notes: `${mb(afterEntrants.mb)}; added in ${ENTRANTS / PER_REQUEST} requests of ${PER_REQUEST.toLocaleString('en')} in ${addSeconds.toFixed(0)} s`,
      },
      {
        name: `memory: RSS after those entrants and ${MIX_S} s of the soak's mix, then idle`,
        value: Number(afterMix.mb.toFixed(1)),
        unit: 'MB',
        target: '≤ 150 MB',
        met: afterMix.mb <= 150,
        notes: `${load.requests.total} requests (${CONNECTIONS} connections), peak ${mb(peak)} under load, ${load.non2xx} not 2xx`,
      },
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const MEMORY_READING = `### Reading the memory figures

RSS is read from \`/proc\` for the server process and every process it started: a helper beside
the server costs the machine as much as its own heap. Each reading is taken after ${IDLE_S} s
without requests; by then the server has run its one memory-reducing collection of a quiet spell
(\`src/shared/memory-release.ts\`), without which V8 keeps what the busiest moment grew (a shorter
run without it read 186 MB idle, 306 MB after the entrants, 342 MB after the mix). The million entrants
go to one giveaway in the largest batches the API takes. The mix is the soak's (above); its one
PDF is made in the PDF worker thread, which ends ${PDF_WORKER_IDLE_S} s after its last PDF.

What the idle figure is made of, measured apart on the same machine: Node 24 running an empty
script holds 45 MB, 36 MB of it pages of the \`node\` binary; running TypeScript adds about 18 MB
(Node's type stripper, WebAssembly); \`@scalar/fastify-api-reference\`, loaded at start for
\`/docs\`, about 17 MB, most of it its 4.8 MB script held twice as two-byte strings; the rest,
about 70 MB, is the server's code and its dependencies' (the compiled route schemas among them)
and V8's heap around them. After the mix, most of what stays above the entrants' reading is
memory the C allocator keeps for threads that ran, the PDF worker's above all (about 24 MB;
the mix without its PDF leaves about 15 MB): the next worker reuses it rather than adding more.
`;
