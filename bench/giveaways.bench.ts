import type { ParticipantRow } from '../src/giveaways/entrants/participant.repository.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import { participantAt, rssOf, seedSqlite } from './giveaways-setup.ts';
import type { BenchResult } from './result.ts';

const MILLION = 1_000_000;
const count = () => Number(process.env.BENCH_PARTICIPANTS ?? MILLION);
const round = (value: number, digits = 0) => Number(value.toFixed(digits));

async function withServer<T>(dataDir: string, work: (url: string, pid: number) => Promise<T>): Promise<T> {
  const server = await startServerProcess({ DATA_DIR: dataDir, TYCHE_SOURCES: 'system' });
  try {
    return await work(server.url, server.child.pid!);
  } finally {
    await server.stop();
  }
}

/** (a) One draw over a million participants, timed by the client: request sent → response read. */
export async function benchDraw(): Promise<BenchResult> {
  const seeded = await seedSqlite(count());
  try {
    return await withServer(seeded.dataDir, async (url) => {
      const started = performance.now();
      const res = await fetch(`${url}/api/v1/giveaways/${seeded.publicId}/draw`, {
        method: 'POST',
        headers: { authorization: `Bearer ${seeded.key}` },
      });
      const body = (await res.json()) as { winners?: unknown[]; participants_count?: number };
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`draw answered ${res.status}: ${JSON.stringify(body)}`);
      return {
        name: `draw over ${seeded.participants.toLocaleString('en')} participants, HTTP end to end (SQLite)`,
        value: round(ms),
        unit: 'ms',
        target: '< 2000 ms',
        met: ms < 2000,
        notes: `${body.winners?.length} winners; reads every id in canonical order, hashes, draws, seals and commits in one transaction`,
      };
    });
  } finally {
    seeded.cleanup();
  }
}

/** One export read to the end by the client, with the server's peak RSS while it ran. */
async function timedExport(url: string, pid: number, publicId: string, key: string) {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 5);
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  try {
    const res = await fetch(`${url}/api/v1/giveaways/${publicId}/participants.csv`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (res.status !== 200 || !res.body) throw new Error(`CSV answered ${res.status}`);
    const reader = res.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const chunk = read.value;
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rssOf(pid));
  // Names in the seed contain commas and quotes but no line breaks: one line per participant.
  return { rows: lines - 1, bytes, seconds: (performance.now() - started) / 1000, before, peak };
}

/**
 * (b) The participants CSV of a million participants: rows/s at the client, and the growth of
 * the server's RSS over a just-started server (that has answered one request). A second export
 * of the same rows shows what is left once V8 has sized its heap for the work.
 */
export async function benchCsvExport(): Promise<BenchResult[]> {
  const seeded = await seedSqlite(count());
  try {
    return await withServer(seeded.dataDir, async (url, pid) => {
      const headers = { authorization: `Bearer ${seeded.key}` };
      await (await fetch(`${url}/api/v1/giveaways/${seeded.publicId}`, { headers })).arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const first = await timedExport(url, pid, seeded.publicId, seeded.key);
      if (first.rows !== seeded.participants) {
        throw new Error(`CSV had ${first.rows} rows, expected ${seeded.participants}`);
      }
      const second = await timedExport(url, pid, seeded.publicId, seeded.key);
      const mb = (bytes: number) => bytes / 2 ** 20;
      const growth = mb(first.peak - first.before);
      const rate = first.rows / first.seconds;
      return [
        {
          name: `CSV export of ${first.rows.toLocaleString('en')} participants`,
          value: round(rate),
          unit: 'rows/s',
          target: '≥ 500 000 rows/s',
          met: rate >= 500_000,
          notes: `${mb(first.bytes).toFixed(1)} MiB in ${first.seconds.toFixed(2)} s (second export: ${round(first.rows / second.seconds).toLocaleString('en')} rows/s); pages of 5 000 rows through a covering index`,
        },
        {
          name: 'CSV export: peak RSS growth of the server process',
          value: round(growth, 1),
          unit: 'MB',
          target: '< 100 MB',
          met: Number.isFinite(growth) && growth < 100,
          notes: `${mb(first.before).toFixed(0)} → ${mb(first.peak).toFixed(0)} MB on the first export; the second export grew it by ${mb(second.peak - second.before).toFixed(0)} MB more (VmRSS sampled every 5 ms)`,
        },
      ];
    });
  } finally {
    seeded.cleanup();
  }
}

/**
 * (c) Participant inserts: the public API (10 000 per call, the per-call maximum) on a giveaway
 * that already holds a million, and the repository's bulk path used for seeding.
 */
export async function benchParticipantInsert(): Promise<BenchResult> {
  const seeded = await seedSqlite(count());
  const calls = Number(process.env.BENCH_INSERT_CALLS ?? 20);
  try {
    return await withServer(seeded.dataDir, async (url) => {
      const template = Array.from({ length: 10_000 }, (_, i) => participantAt(0, i + 1, 0));
      const started = performance.now();
      for (let call = 0; call < calls; call++) {
        const participants = template.map((p: ParticipantRow, i) => ({
          telegram_id: 2 ** 33 + call * 10_000 + i,
          username: p.username ?? undefined,
          first_name: p.first_name ?? undefined,
        }));
        const res = await fetch(`${url}/api/v1/giveaways/${seeded.publicId}/participants`, {
          method: 'POST',
          headers: { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ participants }),
        });
        if (res.status !== 200) throw new Error(`participants answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
      const rate = (calls * 10_000) / ((performance.now() - started) / 1000);
      return {
        name: 'participant insert over HTTP (10 000 per call)',
        value: round(rate),
        unit: 'rows/s',
        target: '≥ 50 000 rows/s',
        met: rate >= 50_000,
        notes: `${calls} sequential calls into a giveaway of ${seeded.participants.toLocaleString('en')}; repository bulk insert (seeding, 2 000 rows per statement): ${round(seeded.seedRowsPerSecond).toLocaleString('en')} rows/s`,
      };
    });
  } finally {
    seeded.cleanup();
  }
}

/** The suite bench/run.ts runs. */
export async function benchGiveaways(): Promise<BenchResult[]> {
  return [await benchDraw(), ...(await benchCsvExport()), await benchParticipantInsert()];
}
