import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig } from '../src/config.ts';
import { createGiveawayRepository } from '../src/giveaways/core/giveaway.repository.ts';
import {
  createParticipantRepository,
  type ParticipantRow,
} from '../src/giveaways/entrants/participant.repository.ts';
import { createServices } from '../src/services.ts';
import { openStore } from '../src/store/store.ts';
import { participantAt } from './giveaways-setup.ts';
import type { BenchResult } from './result.ts';
import type { SealFigures } from './seal-measure.ts';

const MILLION = 1_000_000;
const WINNERS = 1000;
const SEED_BATCH = 50_000;
/** BENCH_ENTRANTS (or BENCH_PARTICIPANTS, as for the giveaway suite) makes a quicker run. */
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
    const services = createServices(
      createConfig({ DATA_DIR: dataDir, TYCHE_SOURCES: 'system', TYCHE_TSA_URLS: '' }),
      store,
    );
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
  const flags = ['--expose-gc', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])];
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

/** Where the time of the seal and the draw goes, from CPU profiles (BENCH_CPU_PROF). */
export const SEAL_READING = `### Reading the seal figures

The seal takes well under its 3 s target, and most of it is the entrant tree. Profiled with
\`BENCH_CPU_PROF=<dir> npm run bench -- seal\`: the tree is about a million node hashes (leaf hashes
are stored at entry), nearly all of its time inside node:crypto's one-shot \`hash()\`. The digest is
asked for as binary text and copied into a pooled buffer: asked for as a \`Buffer\`, each digest
got a backing store of its own, which made every hash about 2.5× dearer and slowed repeated builds
while the garbage collector worked through a million external buffers (the tree took 0.8–1.5 s
then). The ordered read, in pages of 16 384 along the \`(giveaway_id, leaf_hash)\` index, is the
next largest part; the drand round with its BLS check, the signature and the two inserts are a few
tens of milliseconds together.

The peak RSS growth is the 32 MB packed list, one page of text at a time (about 1 MB in SQLite and
1 MB as a JavaScript string) with the garbage those pages leave until the next collection, and the
tree's 8 KB working buffer and chunk roots. Reading the whole list as one aggregated text, as the
seal first did, grew the process by about 207 MB: 64 MB of text in SQLite, the same again as a
string, then the buffer.

The draw after the round spends about half of its time reading the winners' 256-leaf chunks (one
query per chunk, a row object per entrant) and a quarter on the proofs inside those chunks; the
levels above the chunks are hashed once per draw (before that, once per winner: about 5 s for 1 000
winners). Reading each chunk as one aggregated value, as the CSV export reads its pages, would cut
the first part. A single proof rehashes the roughly 3 900 chunk roots above its chunk; keeping those
levels with the seal would leave it one chunk read.
`;

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
    return [
      {
        name: `seal of ${n} entrants, service call end to end (SQLite)`,
        value: round(f.sealMs),
        unit: 'ms',
        target: '< 3000 ms',
        met: f.sealMs < 3000,
        notes: `first seal of a fresh process: newest drand round and its BLS check, row lock, ordered read, tree, signing, seal row and draw job committed. Parts timed apart afterwards: drand round ${round(f.drandLatestMs)} ms, ordered read of the leaf hashes ${round(f.readLeavesMs)} ms, tree ${round(f.treeMs[0])} ms (first run). Seeded through the repository at ${round(entrants / seeded.seconds).toLocaleString('en')} entrants/s`,
      },
      {
        name: 'seal: peak RSS growth of the process',
        value: round(growth, 1),
        unit: 'MB',
        target: '< 200 MB',
        met: Number.isFinite(growth) && growth < 200,
        notes: `${(f.rssBefore / MB).toFixed(0)} → ${(f.rssPeak / MB).toFixed(0)} MB (VmHWM reset just before the seal); leaf hashes read page by page into one packed buffer, no object per entrant`,
      },
      {
        name: `entrant tree alone (buildEntrantTree, ${n} leaves)`,
        value: round(tree),
        unit: 'ms',
        target: '< 1000 ms',
        met: tree < 1000,
        notes: `median of ${f.treeMs.length} runs in one process (${f.treeMs.map((ms) => round(ms)).join(', ')} ms), each checked against the sealed root; root, ${Math.ceil(f.entrants / 256).toLocaleString('en')} chunk roots and chunk first leaves`,
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
        notes: `runDue() with the clock at the round: ${f.jobsRun} job; fetches and verifies the round, seed, picks, one chunk read and proof per winner (each proof checked), signed certificate, committed with sealed → completed`,
      },
    ];
  } finally {
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
}
