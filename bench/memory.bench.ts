import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { PDF_WORKER_IDLE_MS } from '../src/pdf/pdf-renderer.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import type { BenchResult } from './result.ts';
import { soakMix, treeRssMb } from './soak-mix.ts';

/** MEMORY_MIX_S: how long the soak's mix runs; IDLE_S: how long the server is left alone before a reading. */
const MIX_S = Number(process.env.MEMORY_MIX_S ?? 60);
const IDLE_S = Number(process.env.IDLE_S ?? 30);
const PDF_WORKER_IDLE_S = PDF_WORKER_IDLE_MS / 1000;
/** The quiet spell before the reading after the mix: long enough for the PDF renderer process to have ended. */
const MIX_IDLE_S = Math.max(IDLE_S, PDF_WORKER_IDLE_S + 15);
const CONNECTIONS = 8;
const ENTRANTS = Number(process.env.MEMORY_ENTRANTS ?? 1_000_000);
/** The most one request may add (the participants schema's maxItems). */
const PER_REQUEST = 10_000;
/** What `npm start` runs: the shim, which serves the sources' stripped text from its cache. */
const BIN = fileURLToPath(new URL('../bin/tyche.js', import.meta.url));

const MB = 2 ** 20;
const mb = (value: number) => `${value.toFixed(0)} MB`;

/** The resident set of one process split as /proc tells it (MB): pages mapped from files, and the rest. */
function residentOf(pid: number): { file: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { file: kb('RssFile') / 1024, anon: kb('RssAnon') / 1024 };
}

/** What the server's own metrics say of its V8 heap (committed) and of memory V8 counts outside it (MB). */
async function heapOf(url: string): Promise<{ heap: number; external: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / MB;
  return { heap: gauge('nodejs_heap_size_total_bytes'), external: gauge('nodejs_external_memory_bytes') };
}

interface Reading {
  /** RSS with any child process, after the quiet spell. */
  mb: number;
  /** Resident pages mapped from files: the node binary's code and read-only data, shared libraries. */
  file: number;
  /** The V8 heap as committed, memory V8 accounts for outside it, and the rest of the anonymous pages. */
  heap: number;
  external: number;
  native: number;
}

/** The server's resident set after `seconds` without requests, and what it is made of. */
async function idleReading(pid: number, url: string, seconds = IDLE_S): Promise<Reading> {
  await sleep(seconds * 1000);
  const value = treeRssMb(pid);
  const { file, anon } = residentOf(pid);
  // Read after the RSS: this request is the only one the quiet spell sees.
  const { heap, external } = await heapOf(url);
  return { mb: value, file, heap, external, native: anon - heap - external };
}

const parts = (r: Reading) =>
  `file-backed ${mb(r.file)}, V8 heap ${mb(r.heap)}, outside the heap ${mb(r.external)}, other native ${mb(r.native)}`;

/** RSS (MB) of Node 24 running `args` and nothing else, read after three seconds. */
async function floorOf(args: string[]): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: 'ignore' });
  try {
    await sleep(3000);
    return treeRssMb(child.pid!);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
}

/** One `tyche serve` on SQLite in `dir`, started as `npm start` starts it, and its reading once idle. */
async function startIdle(dir: string) {
  // No outside timestamps: nothing in a benchmark may wait on the internet.
  const env = {
    DATA_DIR: join(dir, 'data'),
    TYCHE_SOURCES: 'system',
    TYCHE_PUBLIC_RATE_LIMIT: '0',
    TYCHE_TSA_URLS: '',
  };
  const server = await startServerProcess(env, { keepLogs: false, entry: BIN });
  try {
    const pid = server.child.pid!;
    return { server, env, pid, idle: await idleReading(pid, server.url) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** A minute of the soak's mix against a fresh server: its reading once idle again. */
async function afterTheMix(dir: string) {
  const { server, env, pid, idle } = await startIdle(dir);
  try {
    const mix = await soakMix(server, env);
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
    return { idle, load, peak, after: await idleReading(pid, server.url, MIX_IDLE_S) };
  } finally {
    await server.stop();
  }
}

/** A million entrants added to one giveaway of a fresh server: its reading before and after. */
async function afterTheEntrants(dir: string) {
  const { server, env, pid, idle } = await startIdle(dir);
  try {
    const mix = await soakMix(server, env);
    const big = await mix.api('POST', '/giveaways', {
      title: 'A million',
      winners_count: 10,
      draw_mode: 'instant',
    });
    const started = performance.now();
    let peak = 0;
    for (let from = 1; from <= ENTRANTS; from += PER_REQUEST) {
      const participants = Array.from({ length: PER_REQUEST }, (_, i) => ({
        telegram_id: 10_000_000 + from + i,
      }));
      const added = await mix.api('POST', `/giveaways/${big.public_id}/participants`, { participants });
      if (added.error) throw new Error(`adding entrants failed: ${JSON.stringify(added)}`);
      peak = Math.max(peak, treeRssMb(pid));
    }
    const seconds = (performance.now() - started) / 1000;
    return { idle, seconds, peak, after: await idleReading(pid, server.url) };
  } finally {
    await server.stop();
  }
}

/**
 * The resident memory of `tyche serve` on SQLite, started as `npm start` starts it, beside the
 * floor of Node itself measured in the same run: left alone after its start, after a minute of
 * the soak's mix, and (a second server) after one giveaway was given a million entrants through
 * the API. Each reading is taken once the server has had IDLE_S seconds without a request.
 */
export async function benchMemory(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-memory-'));
  try {
    const emptyTs = join(dir, 'empty.ts');
    writeFileSync(emptyTs, 'setInterval(() => {}, 2 ** 30);\n');
    const floor = await floorOf(['-e', 'setInterval(() => {}, 2 ** 30)']);
    const floorTs = await floorOf([emptyTs]);
    const mixed = await afterTheMix(join(dir, 'mix'));
    const entrants = await afterTheEntrants(join(dir, 'entrants'));
    const { idle } = mixed;
    const growth = entrants.after.mb - entrants.idle.mb;
    return [
      {
        name: 'memory: RSS of Node 24 running an empty script (the floor, same run)',
        value: Number(floor.toFixed(1)),
        unit: 'MB',
        target: 'reported',
        met: true,
        notes: `\`node -e\`; an empty TypeScript file: ${mb(floorTs)} (Node's type stripper, which the server does not load)`,
      },
      {
        name: 'memory: RSS of an idle server after its start',
        value: Number(idle.mb.toFixed(1)),
        unit: 'MB',
        target: '≤ 100 MB',
        met: idle.mb <= 100,
        notes: `${mb(idle.mb - floor)} above the floor: ${parts(idle)}; read after ${IDLE_S} s without requests (the second server: ${mb(entrants.idle.mb)})`,
      },
      {
        name: `memory: RSS after ${MIX_S} s of the soak's mix, then idle`,
        value: Number(mixed.after.mb.toFixed(1)),
        unit: 'MB',
        target: '≤ 150 MB',
        met: mixed.after.mb <= 150,
        notes: `${mixed.load.requests.total} requests (${CONNECTIONS} connections), ${mixed.load.non2xx} not 2xx, peak ${mb(mixed.peak)}; ${parts(mixed.after)}`,
      },
      {
        name: `memory: RSS after ${ENTRANTS.toLocaleString('en')} entrants were added, then idle, above its idle start`,
        value: Number(growth.toFixed(1)),
        unit: 'MB',
        target: '≤ 50 MB',
        met: growth <= 50,
        notes: `a server of its own: ${mb(entrants.idle.mb)} → ${mb(entrants.after.mb)}; added in ${ENTRANTS / PER_REQUEST} requests of ${PER_REQUEST.toLocaleString('en')} in ${entrants.seconds.toFixed(0)} s, peak ${mb(entrants.peak)}; ${parts(entrants.after)}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const MEMORY_READING = `### Reading the memory figures

RSS is read from \`/proc\` for the server process and every process it started. The server is
started as \`npm start\` starts it (\`bin/tyche.js serve\`), on SQLite, with the system source
only and no bot; the floor is the same Node running nothing, measured in the same run. Each
reading is taken after ${IDLE_S} s without requests (after the mix, ${MIX_IDLE_S} s: its one PDF is made in the
PDF renderer, a child process that ends ${PDF_WORKER_IDLE_S} s after its last PDF). By then the server
has run its one memory-reducing collection of a quiet spell (\`src/shared/memory-release.ts\`):
V8's own memory reducer never runs in an idle Node 24 process, and without it V8 keeps what the
busiest moment grew. The mix (the soak's, above) and the million entrants (to one giveaway, in
the largest batches the API takes) each run against a server of their own, started fresh.

Each reading is split as the server sees itself: pages mapped from files (the \`node\` binary's
code and read-only data — V8's compilers, SQLite, OpenSSL, ICU's tables — which the kernel may
drop under memory pressure and reread), the V8 heap as committed (the text V8 keeps of every
loaded module, their bytecode and compiled code, the compiled route schemas, the objects the
server holds), memory V8 counts outside its heap (buffers), and the rest of the anonymous pages
(the C allocator's memory for SQLite, Node and its threads, thread stacks). What the mix leaves
above the earlier readings is mostly in the first part (code paths that only requests run) and
in the last: memory the C allocator keeps after the threads that ran, which the next ones reuse
rather than grow. The PDF renderer is a child process rather than a worker thread for this
reason: an ended thread left about 30 MB of the allocator's memory in the server (130 MB after
one PDF and a quiet minute, 107 MB with the process, measured side by side).

**What a start no longer loads**, measured with this benchmark on the same day, before and after
(idle / after the mix): 109.1 / 165.7 MB, then 101.8 / 150 MB. The Telegram i18n plugin brought a
Deno compatibility layer into every process (about 9 MB): the catalogue now reads its Fluent
files with \`@fluent/bundle\` itself. The command table loaded the verifier, and with it the RFC
3161 code (pkijs, about 3 MB): \`tyche verify\` now loads it when it runs. An ESM import of
\`node:http\` reads its lazy \`WebSocket\` export and so loads Node's fetch implementation (undici,
about 3 MB) into a process that never fetches at idle: the two files that need \`node:http\`
take it with \`process.getBuiltinModule\`. A SQLite server no longer loads the PostgreSQL driver
(about 2.5 MB). \`test/ops/lazy-loading.test.ts\` holds each of these. Later the same day: Fastify
compiled every route's validator (Ajv) and response serializer (fast-json-stringify) before
listening, some two hundred generated functions (about 5 MB) for routes most processes never
serve; they now compile when their route is first asked for (\`src/http/schema-compilers.ts\`, with
a test that compiles them all), and the Markdown renderer of \`/docs/draw-algorithm\` loads with
that page: 104.5–106.7 MB idle before, 100.4–101.9 after, read side by side outside this
benchmark; with the PDF renderer made a child process (above), this benchmark then read 98.9 /
132.7 MB. What is left of the idle figure above the floor is the HTTP stack, the schema builder
(TypeBox, whose 373 modules add about 8 MB to a process that imports them), Kysely, the pages' and
the API's own code, and the curve code that checks drand rounds (about 1.2 MB).

**A capped young generation.** The server runs with \`--max-semi-space-size=8\` (see
\`docs/operations.md\`): Node 24 otherwise lets V8's young generation grow to 128 MB under a
stream of short-lived objects and keeps it. Measured with this benchmark side by side, with the
cap and without: idle 97.5 / 98.9 MB, after the mix 118.4 / 121.1 MB with a peak of 277 / 306
MB during it, and 13.7 / 11.7 MB above idle after a million entrants. The mix served 128 753
requests with the cap and 136 482 without, in a slower hour than the table's run (206 737).
`;
