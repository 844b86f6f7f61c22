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

/** Seconds of each measured load; every configuration is measured once per round. */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const PATHS = {
  int: '/api/v1/random/int?min=1&max=1000000&count=100',
  bytes: '/api/v1/random/bytes?n=1024',
  me: '/api/v1/me',
};
type Endpoint = keyof typeof PATHS;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

/** Servers measured as one: `urls` share the connections (one URL per process). */
interface Target {
  label: string;
  urls: string[];
  headers: Record<string, string>;
  endpoints: Endpoint[];
}

/**
 * CONNECTIONS spread over the target's processes. Several processes: throughput adds up, and the
 * slowest process's percentiles stand.
 */
async function load(target: Target, endpoint: Endpoint, seconds = DURATION_S): Promise<Load> {
  const each = Math.ceil(CONNECTIONS / target.urls.length);
  const results = await Promise.all(
    target.urls.map((url) =>
      autocannon({
        url: url + PATHS[endpoint],
        headers: target.headers,
        connections: each,
        duration: seconds,
      }),
    ),
  );
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}

/** Every load of every target, in rounds: `loads[label][endpoint]` holds one Load per round. */
type Loads = Record<string, Partial<Record<Endpoint, Load[]>>>;

/**
 * Measures the targets round by round, each round going through every target and endpoint once
 * (in reverse order every other round), so what else runs on the machine falls on all of them
 * alike: a figure compared with another comes from the same round, and the rounds' median is
 * reported. Each target and endpoint is warmed up first, so JIT and pools settle.
 */
async function measureRounds(targets: Target[]): Promise<Loads> {
  const plan = targets.flatMap((target) => target.endpoints.map((endpoint) => ({ target, endpoint })));
  for (const { target, endpoint } of plan) await load(target, endpoint, 2);
  const loads: Loads = Object.fromEntries(
    targets.map((target) => [target.label, Object.fromEntries(target.endpoints.map((e) => [e, []]))]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const { target, endpoint } of round % 2 ? [...plan].reverse() : plan) {
      loads[target.label][endpoint]!.push(await load(target, endpoint));
    }
  }
  return loads;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fixed = (value: number) => Number(value.toFixed(2));

/** A ratio per round of two loads measured in the same round, and their median. */
function ratio(over: Load[], under: Load[]) {
  const rounds = over.map((load, i) => load.rps / under[i].rps);
  return { value: fixed(median(rounds)), rounds: rounds.map((r) => r.toFixed(2)).join(', ') };
}

/** Median throughput and latencies of one target and endpoint over the rounds. */
function typical(rounds: Load[]): Load {
  return {
    rps: median(rounds.map((l) => l.rps)),
    p50: median(rounds.map((l) => l.p50)),
    p99: median(rounds.map((l) => l.p99)),
    failed: rounds.reduce((sum, l) => sum + l.failed, 0),
  };
}

const rps = (l: Load) => `${l.rps.toFixed(0)} req/s`;
const latency = (l: Load) => `p50 ${l.p50} ms, p99 ${l.p99} ms`;

async function startReference() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./bare-server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: JSON.parse(line).url as string, stop: () => child.kill('SIGTERM') };
}

/** p99 of `count=100`, and bytes against /me: the rows every store configuration reports. */
function stackRows(label: string, loads: Loads, reference: Load[]): BenchResult[] {
  const int = typical(loads[label].int!);
  const bytes = typical(loads[label].bytes!);
  const me = typical(loads[label].me!);
  const bytesRatio = ratio(loads[label].bytes!, loads[label].me!);
  return [
    {
      name: `${label}: int count=100 p99 latency, ${CONNECTIONS} clients`,
      value: int.p99,
      unit: 'ms',
      target: '≤ 10 ms',
      met: int.p99 <= 10,
      notes: `${rps(int)}, p50 ${int.p50} ms (reference ${latency(typical(reference))}); p99 per round ${loads[label].int!.map((l) => l.p99).join(', ')} ms; failed ${int.failed}`,
    },
    {
      name: `${label}: bytes n=1024 throughput / /me`,
      value: bytesRatio.value,
      unit: '×',
      target: '≥ 0.70',
      met: bytesRatio.value >= 0.7,
      notes: `rounds ${bytesRatio.rounds}; ${rps(bytes)} (${latency(bytes)}) against /me's ${rps(me)} (${latency(me)}); failed ${bytes.failed + me.failed}`,
    },
  ];
}

const SQLITE = 'SQLite, 1 process';
const PG_ONE = 'PostgreSQL, 1 process';
const PG_TWO = 'PostgreSQL, 2 processes';

/** The targets: SQLite against the reference, one PostgreSQL process against SQLite, two against one. */
function results(loads: Loads): BenchResult[] {
  const reference = loads.reference.int!;
  const sqlite = ratio(loads[SQLITE].int!, reference);
  const rows: BenchResult[] = [
    {
      name: `${SQLITE}: int count=100 throughput / reference`,
      value: sqlite.value,
      unit: '×',
      target: '≥ 0.50',
      met: sqlite.value >= 0.5,
      notes: `rounds ${sqlite.rounds}; ${rps(typical(loads[SQLITE].int!))} against the reference's ${rps(typical(reference))}`,
    },
    ...stackRows(SQLITE, loads, reference),
  ];
  if (!loads[PG_ONE]) return rows;
  const one = ratio(loads[PG_ONE].int!, loads[SQLITE].int!);
  const two = ratio(loads[PG_TWO].int!, loads[PG_ONE].int!);
  rows.push(
    {
      name: `${PG_ONE}: int count=100 throughput / SQLite, 1 process`,
      value: one.value,
      unit: '×',
      target: '≥ 0.70',
      met: one.value >= 0.7,
      notes: `rounds ${one.rounds}; ${rps(typical(loads[PG_ONE].int!))} against SQLite's ${rps(typical(loads[SQLITE].int!))}`,
    },
    ...stackRows(PG_ONE, loads, reference),
    {
      name: `${PG_TWO}: int count=100 throughput / 1 process`,
      value: two.value,
      unit: '×',
      target: '≥ 1.30',
      met: two.value >= 1.3,
      notes: `rounds ${two.rounds}; ${rps(typical(loads[PG_TWO].int!))} against one process's ${rps(typical(loads[PG_ONE].int!))}`,
    },
    ...stackRows(PG_TWO, loads, reference),
  );
  return rows;
}

/** A key with a limit no run reaches, on the store `env` names. */
async function createKey(env: Record<string, string>): Promise<Record<string, string>> {
  const created = await runTyche(['keys', 'create', '--json', '--daily-limit', '1000000000'], env);
  if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  return { authorization: `Bearer ${JSON.parse(created.stdout).key as string}` };
}

/**
 * BENCH_CPU_PROF=<dir>: one more server per endpoint under the same load, profiled with
 * `node --cpu-prof`; the profiles stay in <dir> and their top self-time entries go to stderr.
 */
async function profile(
  dir: string,
  label: string,
  env: Record<string, string>,
  headers: Record<string, string>,
) {
  for (const endpoint of ['int', 'bytes'] as const) {
    const out = join(dir, `${label}-${endpoint}`);
    mkdirSync(out, { recursive: true });
    const server = await startServerProcess(
      { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${out}` },
      { keepLogs: false },
    );
    await load({ label, urls: [server.url], headers, endpoints: [endpoint] }, endpoint, DURATION_S + 2);
    await server.stop();
    process.stderr.write(`\nCPU profile, ${PATHS[endpoint]} (${label}):\n${topEntries(newestProfile(out))}`);
  }
}

/**
 * BENCH_PG_POOLS=2,4,8,16: one PostgreSQL process per pool size (TYCHE_DB_POOL_SIZE) under the
 * `count=100` and bytes loads, in rounds like the rest, one line each on stderr: how the default
 * pool size was chosen.
 */
async function measurePools(env: Record<string, string>, headers: Record<string, string>, sizes: number[]) {
  const servers: ServerProcess[] = [];
  try {
    const targets: Target[] = [];
    for (const size of sizes) {
      const server = await startServerProcess(
        { ...env, TYCHE_DB_POOL_SIZE: String(size) },
        { keepLogs: false },
      );
      servers.push(server);
      targets.push({ label: `pool ${size}`, urls: [server.url], headers, endpoints: ['int', 'bytes'] });
    }
    const loads = await measureRounds(targets);
    for (const target of targets) {
      const int = typical(loads[target.label].int!);
      const bytes = typical(loads[target.label].bytes!);
      process.stderr.write(
        `  ${target.label}: int ${rps(int)} (${latency(int)}), bytes ${rps(bytes)} (${latency(bytes)})\n`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
  }
}

/**
 * The full stack (auth, daily limit, operations record, randomness) side by side with a
 * framework-free reference, with the fake ANU answering every call after 300 ms: SQLite with
 * one process, PostgreSQL with one process, and with two on the same database. Every server is
 * started first and all are measured in the same rounds.
 */
export async function benchRandomEndpoints(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-bench-'));
  const anu = await startFakeAnu();
  anu.setDelay(300);
  const common = { TYCHE_SOURCES: 'anu,system', ANU_QRNG_URL: anu.url };
  const reference = await startReference();
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    // Default settings, request logging at the info level included, as an operator would run it.
    const server = await startServerProcess(env, { keepLogs: false });
    servers.push(server);
    return server.url;
  };
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  try {
    const sqliteEnv = { ...common, DATA_DIR: join(dir, 'sqlite') };
    const sqliteKey = await createKey(sqliteEnv);
    const targets: Target[] = [
      { label: 'reference', urls: [reference.url], headers: {}, endpoints: ['int'] },
      {
        label: SQLITE,
        urls: [await start(sqliteEnv)],
        headers: sqliteKey,
        endpoints: ['int', 'bytes', 'me'],
      },
    ];
    const skip = await postgresUnavailable();
    let pgEnv: Record<string, string> | undefined;
    let pgKey: Record<string, string> = {};
    if (skip) {
      process.stderr.write(`  PostgreSQL figures skipped: ${skip}\n`);
    } else {
      database = await createTestDatabase();
      pgEnv = { ...common, DATA_DIR: join(dir, 'pg'), DATABASE_URL: database.url };
      pgKey = await createKey(pgEnv);
      const pools = process.env.BENCH_PG_POOLS;
      if (pools) await measurePools(pgEnv, pgKey, pools.split(',').map(Number));
      // Two keys: the one-process and two-process figures never share a key's blocks.
      const twoKey = await createKey(pgEnv);
      targets.push(
        { label: PG_ONE, urls: [await start(pgEnv)], headers: pgKey, endpoints: ['int', 'bytes', 'me'] },
        {
          label: PG_TWO,
          urls: [await start(pgEnv), await start(pgEnv)],
          headers: twoKey,
          endpoints: ['int', 'bytes', 'me'],
        },
      );
    }
    const loads = await measureRounds(targets);
    for (const server of servers.splice(0)) await server.stop();
    if (process.env.BENCH_CPU_PROF) {
      await profile(process.env.BENCH_CPU_PROF, 'sqlite', sqliteEnv, sqliteKey);
      if (pgEnv) await profile(process.env.BENCH_CPU_PROF, 'postgres', pgEnv, pgKey);
    }
    return results(loads);
  } finally {
    reference.stop();
    for (const server of servers) await server.stop();
    await database?.drop();
    await anu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const RANDOM_READING = `### Reading the random-endpoint figures

Every server is started first, then measured in rounds: each round loads every configuration
once for ${DURATION_S} s (in reverse order every other round), so whatever else the machine runs falls on
all of them alike. A ratio is taken within each round and the rounds' median is reported, with
each round's value in the notes. The comparisons: the full stack against a node:http server that
returns the same JSON from \`crypto.randomInt\` and \`crypto.randomUUID\` (no framework, auth,
daily limit, record or log); \`/random/bytes\` against \`/me\` through the same stack (framework,
auth and request log; \`/me\` reads the key and the day's count and writes nothing); one
PostgreSQL process against one SQLite process; two PostgreSQL processes on one database against
one. 10 connections come from the benchmark process; the servers run in processes of their own;
the fake ANU answers after 300 ms. On this 2-core machine the load generator, the servers and
(for the PostgreSQL rows) the database share the two cores with whatever else runs there.

**Before** (same benchmark, before one record per request): \`/random/int?count=100\` served 497
req/s against the reference's 11 783 (0.04), p99 50 ms; \`/random/bytes\` 0.43 of \`/me\`; on
PostgreSQL 287 req/s (0.02), p99 118 ms, and bytes 0.42 of \`/me\`. Each of the 100 values had its
own UUID, SHA-256 seed, ChaCha20 stream and row, and every statement was built by Kysely per
request. Top self-time entries of the SQLite server's CPU profile under \`count=100\`
(\`BENCH_CPU_PROF=<dir> npm run bench -- random\`), before and after:

| before | function | after | function |
|---|---|---|---|
| 16.6% | SQLite \`run\` (100-row insert) | 12.2% | \`writeUtf8String\` (response to the socket) |
| 12.1% | \`randomFillSync\` (entropy per value) | 8.6% | SQLite \`all\` (key read, limit count) |
| 7.0% | garbage collector | 8.0% | idle |
| 6.3% | SQLite \`all\` | 7.9% | SQLite \`run\` (record, group commit) |
| 3.3% | Kysely \`parseRowValues\` | 4.4% | garbage collector |
| 3.3% | SHA-256 \`digest\` (seed per value) | 4.0% | \`writeString\` (request log, to stdout) |
| 3.0% | \`createChaChaStream\` (per value) | 3.8% | fast-json-stringify \`asInteger\` |
| 2.8% | \`keystreamBlocks\` | 2.5% | response serializer |
| 2.3% | SHA-256 \`update\` | 2.3% | (program) |
| 2.3% | ChaCha20 \`quarter\` | 1.7% | fast-json-stringify \`escapeStringLoop\` |

The whole of \`int\` (100 values, ids, record) is 1.4% after; no hash, cipher or CSPRNG entry
is left in the top twelve.

**After**: one record per request names its ids (a version 7 UUID base whose last byte numbers
the value), one seed and one @noble/ciphers ChaCha20 call per request, system entropy drawn 64
KiB at a time, the key read, limit count and record built once and prepared (named statements
on PostgreSQL), and the counts and records that reach the store in one event-loop turn committed
together. The randomness of a \`count=100\` request now costs about 10 µs in all (measured on
the service alone), less than its JSON. Across three runs of that code on SQLite,
\`count=100\` served 0.43–0.47 of the reference (2 600–4 700 req/s, 5–9× before) with p99 8–14 ms,
and \`/random/bytes\` 0.62–1.06 of \`/me\`; the runs that met the bytes and p99 targets had the
machine otherwise quiet.

**Then: the count with its record.** The daily-limit count of a random request is now made in
the transaction that writes its record (on PostgreSQL in the same statement, a data-modifying
CTE; on SQLite both statements as one item of the group commit), after a read of the count that
refuses a spent key before any randomness is drawn — skipped while this process last saw the key
far from its limit, since the conditional upsert keeps the limit exact anyway. A request refused
for its parameters is still counted. The request log is written without blocking the request
(pino's asynchronous destination). Three runs of this code on SQLite: \`count=100\` at 0.55,
0.51 and 0.59 of the reference with p99 5, 8 and 7 ms, \`/random/bytes\` at 0.93, 0.90 and 1.05 of
\`/me\`: all three SQLite targets met in each. Top self time of the SQLite server under \`count=100\` now:

| share | function |
|---|---|
| 11.1% | SQLite \`all\` (key read; the count's upsert, which returns the count) |
| 6.6% | idle |
| 5.4% | SQLite \`run\` (the record) |
| 5.1% | \`writeUtf8String\` (response to the socket) |
| 4.6% | garbage collector |
| 4.2% | fast-json-stringify \`asInteger\` |
| 4.2% | the route's compiled serializer |
| 1.8% | fast-json-stringify \`escapeStringLoop\` |
| 1.8% | \`int\` (100 values, ids) |
| 1.5% | SHA-256 \`digest\` (key hash, seed) |

The request log (4–5% before) has left the top. **What limits the rest** is what every request
pays: the store statements (about 17%), the socket and the JSON of 100 integers and 100 ids
(about 15%, of which the reference pays the socket as well). What would move it further: a
hand-built JSON body for \`/random/int\` (ids and integers need no escaping), and reading the key
from an in-process cache for a few seconds (it would delay a revocation by as much, which the
contract does not allow).

**Elsewhere.** The giveaway suite (draw of 1 000 000, CSV export, participant insert) was run back
to back at the commit before this work and after it, twice each on the same machine: draw 605 and
818 ms before, 640–1 015 ms after; CSV export 451 000–670 000 rows/s before, 347 000–578 000
after; insert 12 000–13 000 rows/s before, 12 000–16 000 after. The spread is the machine's (its
seeding step, which shares no code with this work, moved just as much); those paths changed only
in the key read and limit count every request makes, which got cheaper. After the count moved to the record
and joins began to record webhook events (one indexed read of the account's endpoints per
addition when none subscribes), one more run: draw 577 ms, CSV export 784 000 rows/s, insert
16 500 rows/s, within or above those ranges.

**PostgreSQL, before this version** (two server processes on one database): the count-with-record
statement had brought it to 0.16–0.22 of the reference for \`count=100\` with p99 15–20 ms, and
0.53–0.77 of \`/me\` for bytes; one process served 0.36 of one SQLite process and two served
less than one. The database was not CPU-bound: its connections waited on a row lock
(\`Lock:transactionid\`) and on each commit's WAL flush (\`IO:WALSync\`), because every request of
a key upserted the same \`usage_daily\` row and so queued behind the commit before it.

**Now: the daily limit in blocks, the records in group commit.** A process takes a block of a
key's daily allowance in one short statement and hands its places to requests from memory; each
request's place is spent in the commit of its operations record, on the process's own
\`usage_leases\` row, so no request waits on a row another request or process holds
(\`accounts/quota-blocks.ts\`; blocks grow while they are spent quickly, never past 1/20 of what
remains, and go back after a second unused or when the process stops; the limit stays exact,
tested with two processes racing). The records of the requests that arrive while a batch
commits go together in the next one, one batch in flight per process: on PostgreSQL one
prepared statement (a data-modifying CTE: the records inserted from one array per column, the
blocks' \`used\` raised, each key's count read back for the rate-limit headers), on SQLite one
transaction; each answer leaves after its batch committed, so an acknowledged answer's record
survives a crash (the crash tier kills processes under random load and finds every answered
request_id). Batches were about 4–5 requests at 10 connections. Two batches in flight (each on a
row of its own) and a shared key read per event-loop turn were tried and measured no better: on
these two cores every extra commit or wake-up costs more CPU than the overlap saves.

The same benchmark on the code before this version and on this version, back to back (machine
load 8–11): one PostgreSQL process 344 → 542 req/s for \`count=100\` (0.24 → 0.35 of one SQLite
process), p99 167 → 102 ms; two processes 250 → 352 req/s; bytes against \`/me\` 0.49 → 0.60 (one
process) and 0.39 → 0.50 (two); SQLite at 0.40 and 0.29 of the reference (rounds 0.33–0.40 and
0.29–0.42: the machine's spread; measured alternately on the server alone, the new code spends
the same or less CPU per request: \`count=100\` 271–320 µs against 282–365, bytes 197–202 against
207–246). Three runs of this version (load 3–8): SQLite \`count=100\` 0.44, 0.41 and 0.37 of the
reference (single rounds 0.27–0.62), p99 11, 20 and 12 ms, bytes 0.75, 0.93 and 0.68 of \`/me\`;
one PostgreSQL process 0.30, 0.27 and 0.29 of SQLite (807–1 255 req/s), p99 30–44 ms, bytes 0.61,
0.42 and 0.70 of \`/me\`; two processes 0.62, 0.86 and 0.66 of one. Three more (CPU pressure
60–88%): SQLite 0.36, 0.41 and 0.33 of the reference, p99 33, 21 and 13 ms, bytes 0.75, 0.83 and
0.79 of \`/me\`; PostgreSQL 0.25, 0.25 and 0.34 of SQLite, p99 91, 63 and 31 ms, bytes 0.40, 0.69
and 0.85 of \`/me\`; two processes 0.58, 1.12 and 0.62 of one. The pool size was measured from
2 to 16 connections (\`BENCH_PG_POOLS=2,4,6,10,16 BENCH_ROUNDS=5\`): 1 010–1 250 req/s for
\`count=100\` and 1 400–1 580 for bytes, flat within the rounds' spread, so the default stays 10,
which leaves room for connections that long reads (CSV exports, draws) hold.

**What limits it here** is the CPU of a machine shared with other work: during these runs the
kernel's CPU pressure stall figure (\`/proc/pressure/cpu\`, "some") stood at 30–85%, so every hop
between processes waits for a core. A PostgreSQL request makes two of them that a SQLite request
does not (the key read, and its share of a batch), and the server, its database backends and the
load generator compete for the same two cores: per request the Node process spends about 1.5–2×
the CPU of the SQLite server (460–620 µs against 270–330 for \`count=100\`), the largest part in
the socket writes to the database (\`writev\` is a quarter of its profile: the wake-up of a
backend), and the backends 180–330 µs more. A
commit that takes 0.3–0.6 ms alone took 2.5–4 ms inside a batch under this load. Two processes
split the same ten clients into smaller batches (more commits for the same requests) on cores
that are already full, so they serve less than one; with the database on cores of its own, or
an otherwise idle machine, they have room to add up. The p99 targets fall to the same queueing.
What would move it further here: a database on cores of its own; not an asynchronous commit
(\`synchronous_commit = off\`), which would lose acknowledged records if the database crashed.

**Then: one round trip per random request.** A random request's key is now taken from memory when
this process authenticated it before (a bounded map of Business keys by prefix, the presented key
hashed and compared in constant time with the stored hash), and its revocation and plan are read
in the statement that commits its record (\`accounts/key-standing.repository.ts\`): a key revoked
or moved off Business by any process is refused from its next request with the same 401 or 403,
and records and counts nothing; a request that ends before that commit (bad parameters, a 429, a
503) reads the key before its answer leaves. On PostgreSQL a random request is one statement, its
share of a batch. Measured alone per request (one PostgreSQL process, \`count=100\`, alternating old
and new code): the Node process spends 186–220 µs against 274–305, the database backends 94–98 µs
against 106–136, and a commit carries 6 requests against 0.9 before (the key reads were
transactions of their own). In the benchmark, old and new code back to back, twice (new first
each time): one PostgreSQL process 3 427 → 4 190 and 3 337 → 3 972 req/s for \`count=100\`
(+19–22%), p99 9 → 7 and 10 → 7 ms, bytes 0.59 → 0.65 and 0.54 → 0.61 of \`/me\`; two processes
2 358 → 3 005 and 2 249 → 2 792 req/s, p99 17 → 12 and 16 → 11 ms. SQLite gained too, its key
read gone as well (10 361 → 11 546 and 10 050 → 11 425 req/s, 0.48 → 0.57 and 0.51 → 0.57 of the
reference; bytes 0.80 → 0.87 and 0.75 → 0.89 of \`/me\`), so PostgreSQL against SQLite stayed
where it was (0.39 → 0.36, 0.41 → 0.35) and two processes against one too (0.75 → 0.75, 0.67 →
0.74). What limits it is the same two cores: measured alone at 4 766 req/s, the Node process
(136 µs per request) and the backends (94 µs) took about 1.1 of them beside the load generator,
and half of the Node process's profile is idle time, waiting for its batch. Two processes still
serve less than one: each takes half of the ten clients into its own batches, so the same
requests cost more commits on cores that are already full.
Three runs of this benchmark in a row on the same day, on the merged code, on an AMD EPYC
machine (2026-11-27): SQLite 0.52, 0.59 and 0.55 of the reference (p99 4 ms each); one PostgreSQL
process 0.39, 0.41 and 0.40 of SQLite (p99 7, 6, 6 ms), its bytes 0.70, 0.68 and 0.68 of \`/me\`;
two processes 0.70, 0.65 and 0.72 of one (p99 12, 11, 11 ms).

**Then: the batch statement planned once.** PostgreSQL plans a prepared statement for the values
of each of its first five runs, then keeps doing so unless one plan for any values is estimated
to cost no more; for the batch statement it never was, so every batch was planned again. With
each statement's time in the server log, one process under \`count=100\`: binding (where the
planning happens) took 0.40 ms of each batch and running it 0.17 ms; planned once
(\`plan_cache_mode = force_generic_plan\`), 0.05 and 0.22 ms. The batches now go through a
connection of their own that has that setting (\`Store.batchDb\`: one batch in flight needs one
connection), so every other statement, the export's and the seal's among them, is still planned
for its values. Measured alone per request, alternately: the backends spend 68–78 µs against
137–146, the Node process about the same (236–274 µs against 259–301). In the benchmark, old and
new code back to back, twice (old first each time), on an Intel Xeon machine where the reference
served 13 100–13 500 req/s (against 20 700 on the machine of the runs above): one PostgreSQL
process 2 747 → 3 406 and 2 664 → 3 547 req/s for \`count=100\` (+24% and +33%), 0.47 → 0.60 and
0.45 → 0.57 of SQLite, p99 9 → 7 and 8 → 7 ms; its bytes 0.76 → 1.02 and 0.71 → 1.06 of \`/me\`;
two processes 2 033 → 2 568 and 1 987 → 2 584 req/s (0.78 → 0.79 and 0.82 → 0.74 of one), p99
14 → 12 and 12 → 11 ms, bytes 0.66 → 0.84 and 0.60 → 0.77 of \`/me\`. SQLite, which this does not
touch, served 0.43 and 0.47 of the reference with the old code and 0.44 and 0.45 with the new on
that machine; the table above is a third run of the new code there. What limits PostgreSQL now
is the Node process: about 250 µs of its CPU per request against SQLite's 155, a tenth of its
profile the \`writev\` that hands each batch to the database and wakes its backend, and little
idle time left; two processes still split the ten clients into smaller batches.

**Then: one log line per request.** In the SQLite server's profile under \`count=100\`, logging
took about 7% of the time (pino 2.9%, its redaction 2.5%, the write 1.5%), for two lines a
request: Fastify's line when a request arrives and its line when it ends. A request is now one
line, written when it ends, holding what both held (method, URL, host, client address, status,
duration; Fastify's log controller, so its error lines stay as they were). Old and new code back
to back on the Intel Xeon machine, new first, twice with this form and twice with an earlier one
that logged the same line from a hook: SQLite served 0.50, 0.50, 0.52 and 0.48 of the reference
with one line against 0.45, 0.47, 0.44 and 0.46 with two; in requests per second, in the two
runs of this form, 7 029 against 6 682 and 7 342 against 7 052 (+4–5%), its bytes 9 762 against
8 863 and 10 754 against 9 414 req/s. PostgreSQL moved within its spread between runs (4 012
against 4 451 and 4 242 against 4 245 req/s). Three more runs in a row, with each counted
request's UTC day also formatted once a day instead of once a request (the table above is the
third): SQLite at 7 180, 7 337 and 7 490 req/s, more than in any run before, but 0.45, 0.44 and
0.49 of a reference that served 15 200–16 600 req/s in them (13 500–15 500 in the pairs above).
Against the reference, the target is not met in a stable way.

**Tried since, and not kept** (2026-11-28, on an Intel Xeon machine where the reference served
5 900–9 600 req/s). JSON log lines written in blocks of 4 KiB (pino's asynchronous mode, flushed
every 200 ms, warnings at once) instead of a write as soon as the last one is done: in one run
SQLite served 6–15% more in each of four rounds, but measured again as CPU time, old and new
code alternating over eight rounds of 6 s, the server spent the same per request (new/old
0.77–1.22, median 1.0) and so did the whole machine (0.82–1.15, median 1.02). The checkpoint of
SQLite's write-ahead log, off the committing request: with no checkpoint at all during the run,
the most a thread of its own could give, SQLite served 0.79–1.03 of the usual per round; and
with the checkpoint on a thread, a bulk entry of a million (the store alone) grew the log to
3.6 GB, as a checkpoint that runs beside the writer never finds the moment to start the log
again. PostgreSQL before and after its answers stopped going through the driver's
promise form (\`store/postgres.ts\`), side by side over four rounds: 0.87–1.26 per round, no change
beyond the spread. The second PostgreSQL process: with one process the machine was 70–73% busy
(the server 0.9 of a core, the database 0.22, the load generator 0.16); with two it was 92–95%
busy while serving less, as the two servers spent 51–63% more CPU per request between them,
making twice the commits (a batch of about 2.4 requests instead of 5) with the same ten clients.
Ten clients split over two processes is what the table measures; given ten clients each, two
processes spent per request what one spends with ten (309–363 µs against 311–389). With more
clients than the table's, side by side in three rounds of 8 s: 20 clients, one process 3 415–3 786
req/s and two 3 464–3 794 (0.91–1.11 of one); 40 clients, one 3 947–4 808 and two 4 766–5 009
(0.99–1.27). One process grows with its batches and never leaves more than 70% of the machine
busy (the server one core, the database and the load generator a fifth each); two use 93–96%,
and the third of a core that the second process finds is about what it costs in smaller batches.

**Three more runs of the whole benchmark** on that machine the same day, with the code as it is
now, disagree with each other more than with the table above, which stays from the earlier run
(its PostgreSQL rows from before the driver change): SQLite served 0.53, 0.47 and 0.35 of the
reference (single rounds 0.34–0.62), with p99 8–10 ms; one PostgreSQL process 0.67, 0.68 and 0.64
of SQLite, with p99 11–18 ms where the reference's own p99 was 4–8 ms; two processes 0.90, 0.94
and 1.09 of one (single rounds 0.74–1.32), p99 15–24 ms; the bytes ratios stayed met in all three.
`;
