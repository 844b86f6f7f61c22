import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig } from '../src/config.ts';
import { createGiveawayRepository } from '../src/giveaways/giveaway.repository.ts';
import { createParticipantRepository, type ParticipantRow } from '../src/giveaways/participant.repository.ts';
import { createServices } from '../src/services.ts';
import { openStore } from '../src/store/store.ts';
import { participantAt } from './giveaways-setup.ts';
import type { BenchResult } from './result.ts';
import type { SealFigures } from './seal-measure.ts';

const MILLION = 1_000_000;
const WINNERS = 1000;
const SEED_BATCH = 50_000;
const count = () => Number(process.env.BENCH_ENTRANTS ?? process.env.BENCH_PARTICIPANTS ?? MILLION);
const round = (value: number, digits = 0) => Number(value.toFixed(digits));
const MB = 2 ** 20;

interface SeededVerifiable {
  dataDir: string;
  key: string;
  publicId: string;
  seconds: number;
}

/**
 * A fresh SQLite store with one business key and one verifiable giveaway of `entrants`, each
 * with its salt and leaf hash (newEntrantLeaf), inserted through the repository. The signing
 * key is made here, as a running server has made it at its first start.
 */
async function seedVerifiable(entrants: number): Promise<SeededVerifiable> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tyche-bench-seal-'));
  const store = openStore({ DATA_DIR: dataDir });
  try {
    await store.migrate();
    const services = createServices(createConfig({ DATA_DIR: dataDir, TYCHE_SOURCES: 'system' }), store);
    const created = await services.accounts.createKey({ plan: 'business', dailyLimit: 1_000_000 });
    await services.signer.current();
    const started = performance.now();
    const giveaway = await services.giveaways.create(created.account_id, {
      title: 'Benchmark',
      winners_count: WINNERS,
      draw_mode: 'verifiable',
    });
    const row = (await createGiveawayRepository(store.db).findByPublicId(giveaway.public_id))!;
    const participants = createParticipantRepository(store.db);
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let from = 1; from <= entrants; from += SEED_BATCH) {
      const rows: ParticipantRow[] = [];
      for (let i = from; i < Math.min(from + SEED_BATCH, entrants + 1); i++)
        rows.push(participantAt(row.id, i, start));
      await store.db.transaction().execute((trx) => participants.insertMany(rows, trx));
    }
    await store.db
      .updateTable('giveaways')
      .set({ participants_count: entrants })
      .where('id', '=', row.id)
      .execute();
    return {
      dataDir,
      key: created.key,
      publicId: giveaway.public_id,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await store.close();
  }
}

/**
 * Runs bench/seal-measure.ts in a process of its own and returns what it printed.
 * BENCH_CPU_PROF=<dir> writes that process's CPU profile there (`node --cpu-prof`).
 */
async function measureInChild(seeded: SeededVerifiable): Promise<SealFigures> {
  const script = new URL('./seal-measure.ts', import.meta.url).pathname;
  const profile = process.env.BENCH_CPU_PROF;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(
    process.execPath,
    [...flags, '--disable-warning=ExperimentalWarning', script, seeded.dataDir, seeded.publicId, seeded.key],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`seal-measure exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop()!) as SealFigures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The suite bench/run.ts runs: seal, tree, proof and draw of a verifiable giveaway. */
export async function benchSeal(): Promise<BenchResult[]> {
  const entrants = count();
  const seeded = await seedVerifiable(entrants);
  try {
    const f = await measureInChild(seeded);
    const n = f.entrants.toLocaleString('en');
    const growth = (f.rssPeak - f.rssBefore) / MB;
    const tree = median(f.treeMs);
    const proof = median(f.proofMs);
    const rest = f.sealMs - f.drandLatestMs - f.readLeavesMs - tree;
    return [
      {
        name: `seal of ${n} entrants, service call end to end (SQLite)`,
        value: round(f.sealMs),
        unit: 'ms',
        target: '< 3000 ms',
        met: f.sealMs < 3000,
        notes: `in a fresh process; timed apart afterwards: drand latest with its BLS check ${round(f.drandLatestMs)} ms, ordered read of the leaf hashes ${round(f.readLeavesMs)} ms, tree ${round(tree)} ms, the rest (lock, signing, storing, job) ${round(Math.max(0, rest))} ms; seeding ${round(entrants / seeded.seconds).toLocaleString('en')} entrants/s through the repository`,
      },
      {
        name: 'seal: peak RSS growth of the process',
        value: round(growth, 1),
        unit: 'MB',
        target: '< 200 MB',
        met: Number.isFinite(growth) && growth < 200,
        notes: `${(f.rssBefore / MB).toFixed(0)} → ${(f.rssPeak / MB).toFixed(0)} MB (VmHWM reset just before the seal); leaf hashes held as one hex text and one packed buffer, no object per entrant`,
      },
      {
        name: `entrant tree alone (buildEntrantTree, ${n} leaves)`,
        value: round(tree),
        unit: 'ms',
        target: '< 1000 ms',
        met: tree < 1000,
        notes: `median of ${f.treeMs.length} runs (${f.treeMs.map((ms) => round(ms)).join(', ')} ms); root, ${Math.ceil(f.entrants / 256).toLocaleString('en')} chunk roots and chunk first leaves`,
      },
      {
        name: 'inclusion proof of one leaf (public.proof)',
        value: round(proof, 2),
        unit: 'ms',
        target: '< 10 ms',
        met: proof < 10,
        notes: `median of ${f.proofMs.length} leaves spread over the list, slowest ${round(Math.max(...f.proofMs), 2)} ms, each proof checked against the sealed root; reads one 256-leaf chunk and the stored chunk roots`,
      },
      {
        name: `draw after the committed round, ${f.winners.toLocaleString('en')} winners (job runner)`,
        value: round(f.drawMs),
        unit: 'ms',
        target: '< 10000 ms',
        met: f.drawMs < 10_000 && f.winners === Math.min(WINNERS, f.entrants),
        notes: `runDue() with the clock at the round: ${f.jobsRun} job; fetches and verifies the round, seed, picks, one chunk read and proof per winner, signed certificate, committed with sealed → completed`,
      },
    ];
  } finally {
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
}
