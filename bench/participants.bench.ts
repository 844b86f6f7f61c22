import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig } from '../src/config.ts';
import { createGiveawayRepository } from '../src/giveaways/core/giveaway.repository.ts';
import { createServices } from '../src/services.ts';
import { systemClock } from '../src/shared/clock.ts';
import { openStore } from '../src/store/store.ts';
import { startFakeDrand } from '../test/helpers/fake-upstreams.ts';
import { createTestDatabase, postgresUnavailable } from '../test/helpers/postgres.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import { storeCeiling } from './participants-ceiling.ts';
import { exportCsv, seal } from './participants-reads.ts';
import { csvUpload, participant } from './participants-upload.ts';
import type { BenchResult } from './result.ts';

export { PARTICIPANTS_READING } from './participants-reading.ts';

/** BENCH_PARTICIPANTS makes a quicker run; the figures are for a million. */
const total = () => Number(process.env.BENCH_PARTICIPANTS ?? 1_000_000);
/** The most one JSON call may carry (the participants schema's maxItems). */
const PER_CALL = 10_000;
const TARGET = 100_000;
/** PostgreSQL's seal and CSV export at most this many times SQLite's. */
const READ_RATIO = 1.5;
const round = (value: number, digits = 0) => Number(value.toFixed(digits));
const MB = 2 ** 20;
const thousands = (value: number) => Math.round(value).toLocaleString('en');

type Dialect = 'sqlite' | 'postgres';
const NAME: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * A fresh store of `dialect`, migrated, with a business key and `giveaways` giveaways: the first
 * verifiable (it is sealed once its participants are in), the others instant.
 */
async function freshStore(dialect: Dialect, giveaways: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-bench-participants-'));
  const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
  // No timestamp authority: the bench reaches nothing outside this machine.
  const env: Record<string, string> = { DATA_DIR: dir, TYCHE_SOURCES: 'system', TYCHE_TSA_URLS: '' };
  if (database) env.DATABASE_URL = database.url;
  const store = openStore({ DATA_DIR: dir, DATABASE_URL: env.DATABASE_URL });
  try {
    await store.migrate();
    const services = createServices(createConfig(env), store);
    const created = await services.accounts.createKey({ plan: 'business', dailyLimit: 1_000_000 });
    const ids: { publicId: string; id: number }[] = [];
    for (let i = 0; i < giveaways; i++) {
      const made = await services.giveaways.create(created.account_id, {
        title: 'Bulk entry',
        winners_count: 10,
        draw_mode: i === 0 ? 'verifiable' : 'instant',
      });
      const row = await createGiveawayRepository(store.db).findByPublicId(made.public_id);
      ids.push({ publicId: made.public_id, id: row!.id });
    }
    return {
      env,
      key: created.key,
      giveaways: ids,
      sqlitePath: database ? undefined : join(dir, 'tyche.sqlite'),
      async cleanup() {
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } finally {
    await store.close();
  }
}

/** Adds total() participants in JSON calls of 10 000, each timed at the client. */
async function jsonCalls(url: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const calls: number[] = [];
  for (let from = 1; from <= total(); from += PER_CALL) {
    const count = Math.min(PER_CALL, total() - from + 1);
    const body = JSON.stringify({
      participants: Array.from({ length: count }, (_, i) => participant(from + i)),
    });
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body });
    const answer = await res.text();
    calls.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`participants answered ${res.status}: ${answer}`);
  }
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0) / 1000;
  const stretch = Math.max(1, Math.round(calls.length / 10));
  return { seconds: sum(calls), first: sum(calls.slice(0, stretch)), last: sum(calls.slice(-stretch)) };
}

/**
 * Through a `tyche serve` process: the JSON calls, then that list's CSV export and seal, then
 * the upload into the second giveaway; then the store alone on a fresh store.
 */
async function runStore(dialect: Dialect) {
  const fresh = await freshStore(dialect, 2);
  const drand = await startFakeDrand({ clock: systemClock });
  let served: {
    json: Awaited<ReturnType<typeof jsonCalls>>;
    csv: Awaited<ReturnType<typeof exportCsv>>;
    sealed: Awaited<ReturnType<typeof seal>>;
    upload: Awaited<ReturnType<typeof csvUpload>>;
  };
  try {
    const env = { ...fresh.env, DRAND_URL: drand.url, DRAND_CHAIN: JSON.stringify(drand.info) };
    const profile = process.env.BENCH_CPU_PROF;
    if (profile) Object.assign(env, { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profile}` });
    const server = await startServerProcess(env, { keepLogs: false });
    try {
      const [listed, uploaded] = fresh.giveaways.map((g) => g.publicId);
      const at = (publicId: string) => `${server.url}/api/v1/giveaways/${publicId}/participants`;
      const json = await jsonCalls(at(listed), fresh.key);
      const csv = await exportCsv(server.url, fresh.key, listed);
      const sealed = await seal(server.url, fresh.key, listed);
      const upload = await csvUpload(at(uploaded), fresh.key, server.child.pid!, total());
      served = { json, csv, sealed, upload };
    } finally {
      await server.stop();
    }
  } finally {
    await drand.close();
    await fresh.cleanup();
  }
  const yardstick = await freshStore(dialect, 1);
  try {
    const where = { sqlitePath: yardstick.sqlitePath, databaseUrl: yardstick.env.DATABASE_URL };
    const alone = await storeCeiling(where, yardstick.giveaways[0].id, total(), participant);
    return { ...served, alone };
  } finally {
    await yardstick.cleanup();
  }
}

type Run = Awaited<ReturnType<typeof runStore>>;

function figures(dialect: Dialect, run: Run): BenchResult[] {
  const { json, csv, sealed, upload, alone } = run;
  const name = NAME[dialect];
  const n = total();
  const jsonRate = n / json.seconds;
  const uploadRate = n / upload.seconds;
  const aloneRate = n / alone.seconds;
  const growth = (upload.peak - upload.before) / MB;
  return [
    {
      name: `${name}: ${thousands(n)} participants in JSON calls of 10 000, HTTP end to end`,
      value: round(jsonRate),
      unit: 'rows/s',
      target: '≥ 100 000 rows/s',
      met: jsonRate >= TARGET,
      notes: `${json.seconds.toFixed(1)} s; the store alone wrote the same rows, 10 000 to a transaction, at ${thousands(aloneRate)} rows/s (the API at ${Math.round((jsonRate / aloneRate) * 100)}% of it)`,
    },
    {
      name: `${name}: JSON calls, time of the last ${thousands(n / 10)} / the first ${thousands(n / 10)}`,
      value: round(json.last / json.first, 2),
      unit: '×',
      target: '≤ 1.25 (flat)',
      met: json.last / json.first <= 1.25,
      notes: `${json.first.toFixed(2)} s, then ${json.last.toFixed(2)} s; the store alone: ${alone.first.toFixed(2)} s, then ${alone.last.toFixed(2)} s (${(alone.last / alone.first).toFixed(2)} ×)`,
    },
    {
      name: `${name}: CSV export of those ${thousands(n)}, HTTP end to end`,
      value: round(csv.rows / csv.seconds),
      unit: 'rows/s',
      target: 'for the ratio below',
      met: csv.rows === n,
      notes: `${(csv.bytes / MB).toFixed(1)} MiB in ${csv.seconds.toFixed(2)} s, right after the last call`,
    },
    {
      name: `${name}: seal of those ${thousands(n)}, HTTP end to end`,
      value: round(sealed.seconds * 1000),
      unit: 'ms',
      target: 'for the ratio below',
      met: sealed.count === n,
      notes:
        'right after the export: drand round (local relay), ordered read of the leaf hashes, tree, signature, commit',
    },
    {
      name: `${name}: one CSV upload of ${thousands(n)}, streamed`,
      value: round(uploadRate),
      unit: 'rows/s',
      target: '≥ 100 000 rows/s',
      met: uploadRate >= TARGET && upload.answer.added === n,
      notes: `${(upload.bytes / MB).toFixed(1)} MiB in ${upload.seconds.toFixed(1)} s, request sent → answer read: spooled, then checked and stored in one pass and one transaction; ${thousands(upload.answer.added)} added`,
    },
    {
      name: `${name}: CSV upload, peak RSS growth of the server`,
      value: round(growth, 1),
      unit: 'MB',
      target: '< 100 MB',
      met: Number.isFinite(growth) && growth < 100,
      notes: `${(upload.before / MB).toFixed(0)} → ${(upload.peak / MB).toFixed(0)} MB (VmHWM reset before the upload, VmRSS sampled every 20 ms)`,
    },
  ];
}

/** PostgreSQL's seal and export against SQLite's, measured in the same run. */
function ratios(sqlite: Run, postgres: Run): BenchResult[] {
  const sealRatio = postgres.sealed.seconds / sqlite.sealed.seconds;
  const csvRatio = postgres.csv.seconds / sqlite.csv.seconds;
  return [
    {
      name: 'PostgreSQL seal time / SQLite seal time',
      value: round(sealRatio, 2),
      unit: '×',
      target: `≤ ${READ_RATIO}`,
      met: sealRatio <= READ_RATIO,
      notes: `${Math.round(postgres.sealed.seconds * 1000)} ms against ${Math.round(sqlite.sealed.seconds * 1000)} ms`,
    },
    {
      name: 'PostgreSQL CSV export time / SQLite CSV export time',
      value: round(csvRatio, 2),
      unit: '×',
      target: `≤ ${READ_RATIO}`,
      met: csvRatio <= READ_RATIO,
      notes: `${postgres.csv.seconds.toFixed(2)} s against ${sqlite.csv.seconds.toFixed(2)} s`,
    },
  ];
}

/** The suite bench/run.ts runs: SQLite, then PostgreSQL when a server answers. */
export async function benchParticipants(): Promise<BenchResult[]> {
  const sqlite = await runStore('sqlite');
  const results = figures('sqlite', sqlite);
  if (await postgresUnavailable()) return results;
  const postgres = await runStore('postgres');
  return [...results, ...figures('postgres', postgres), ...ratios(sqlite, postgres)];
}
