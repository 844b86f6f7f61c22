/**
 * One fresh process that seals a seeded giveaway and draws it, so that memory measured here is
 * the seal's own and not the seeding's. Prints one JSON object (SealFigures) on stdout.
 *
 *   node bench/seal-measure.ts <data dir> <public_id> <api key>
 *
 * The drand relay is the fake chain of the tests (real BLS signatures) on a fake clock shared
 * with the services: the clock is moved to the committed round instead of waiting for it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createConfig } from '../src/config.ts';
import { createGiveawayRepository } from '../src/giveaways/core/giveaway.repository.ts';
import { buildEntrantTree, fastSha256 } from '../src/giveaways/entrants/entrant-tree.ts';
import { createParticipantRepository } from '../src/giveaways/entrants/participant.repository.ts';
import { createJobRunner } from '../src/jobs/job-runner.ts';
import { fromHex } from '../src/proof/hex.ts';
import { verifyInclusion } from '../src/proof/merkle.ts';
import { createDrandClient } from '../src/randomness/sources/drand-client.ts';
import { createServices } from '../src/services.ts';
import { openStore } from '../src/store/store.ts';
import { createFakeClock } from '../test/helpers/fake-clock.ts';
import { startFakeDrand } from '../test/helpers/fake-upstreams.ts';

export interface SealFigures {
  entrants: number;
  sealMs: number;
  /** VmRSS just before the seal and the peak (VmHWM, reset just before) while it ran, bytes. */
  rssBefore: number;
  rssPeak: number;
  /** Parts of the seal timed on their own after it: the verified relay call, the ordered read. */
  drandLatestMs: number;
  readLeavesMs: number;
  /** buildEntrantTree over the same leaves, each run timed. */
  treeMs: number[];
  /** One public proof per sampled leaf, each checked against the sealed root. */
  proofMs: number[];
  /** From the clock reaching the committed round to the draw job done (runDue). */
  drawMs: number;
  winners: number;
  jobsRun: number;
}

const MB = 2 ** 20;

function procStatus(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Linux lets a process reset its own peak RSS (VmHWM) by writing 5 to clear_refs. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

const elapsed = async <T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
};

async function measure(dataDir: string, publicId: string, key: string): Promise<SealFigures> {
  const clock = createFakeClock(Date.now());
  const drand = await startFakeDrand({ clock });
  const config = createConfig({
    DATA_DIR: dataDir,
    TYCHE_SOURCES: 'system',
    TYCHE_TSA_URLS: '',
    DRAND_URL: drand.url,
    DRAND_CHAIN: JSON.stringify(drand.info),
  });
  const store = openStore(config);
  try {
    const services = createServices(config, store, { clock });
    const principal = await services.accounts.authenticate(`Bearer ${key}`);
    const ctx = {
      accountId: principal.accountId,
      keyId: principal.keyId,
      xRequestId: 'bench-seal',
      endpoint: 'POST /api/v1/giveaways/{public_id}/seal',
    };
    // The relay signs a round once and serves it from then on, as a real relay does: its own
    // BLS signing is not the seal's work. Verifying the round is, and stays in the measure.
    await (await fetch(`${drand.url}/${drand.chainHash}/public/latest`)).arrayBuffer();
    // Started with --expose-gc: the seal starts from a collected heap, not from start-up garbage.
    globalThis.gc?.();

    const peakKnown = resetPeak();
    const rssBefore = procStatus('VmRSS');
    const sealed = await elapsed(() => services.giveaways.seal(ctx, publicId));
    const rssPeak = peakKnown ? procStatus('VmHWM') : Number.NaN;
    const giveaway = sealed.value.giveaway;
    const seal = giveaway.seal;
    if (giveaway.status !== 'sealed' || !seal) throw new Error(`seal left ${giveaway.status}`);

    const row = (await createGiveawayRepository(store.db).findByPublicId(publicId))!;
    const rounds = createDrandClient({ url: config.DRAND_URL, chain: config.DRAND_CHAIN });
    const drandLatest = await elapsed(() => rounds.latest());
    const participants = createParticipantRepository(store.db);
    const read = await elapsed(() => participants.leafHashesInOrder(row.id));
    const leaves = read.value;
    const hex = Buffer.from(leaves).toString('hex');
    const treeMs: number[] = [];
    for (let run = 0; run < 3; run++) {
      const tree = await elapsed(async () => buildEntrantTree(leaves));
      if (Buffer.from(tree.value.root).toString('hex') !== seal.entrants.root)
        throw new Error('the tree built alone does not give the sealed root');
      treeMs.push(tree.ms);
    }

    const count = hex.length / 64;
    const root = fromHex(seal.entrants.root);
    const proofMs: number[] = [];
    for (let i = 0; i < 101; i++) {
      const index = Math.floor((i * (count - 1)) / 100);
      const leaf = hex.slice(index * 64, index * 64 + 64);
      const proof = await elapsed(() => services.giveaways.public.proof(publicId, leaf));
      const p = proof.value;
      if (typeof p !== 'object' || p.index !== index) throw new Error(`no proof for leaf ${index}`);
      const path = p.proof.map(fromHex);
      if (!verifyInclusion(fromHex(leaf), index, count, path, root, fastSha256))
        throw new Error(`the proof of leaf ${index} does not verify`);
      proofMs.push(proof.ms);
    }

    // The committed round is published at round_at; the runner finds the draw job due then.
    clock.advance(Date.parse(seal.beacon.round_at) + 1 - clock.now().getTime());
    const runner = createJobRunner({ jobs: services.jobs, clock, handlers: services.giveaways.jobHandlers });
    const drawn = await elapsed(() => runner.runDue());
    const done = await services.giveaways.get(principal.accountId, publicId);
    if (done.status !== 'completed') throw new Error(`after the round the giveaway is ${done.status}`);
    const certificate = await services.giveaways.certificates.get(done.certificate_id!);
    if (!certificate || !('seal' in certificate)) throw new Error('the draw left no v2 certificate');
    for (const w of certificate.winners) {
      const path = w.proof.map(fromHex);
      if (!verifyInclusion(fromHex(w.leaf_hash), w.index, count, path, root, fastSha256))
        throw new Error(`the proof of winner ${w.position} does not verify`);
    }

    return {
      entrants: seal.entrants.count,
      sealMs: sealed.ms,
      rssBefore,
      rssPeak,
      drandLatestMs: drandLatest.ms,
      readLeavesMs: read.ms,
      treeMs,
      proofMs,
      drawMs: drawn.ms,
      winners: certificate.winners.length,
      jobsRun: drawn.value,
    };
  } finally {
    await store.close();
    await drand.close();
  }
}

const [dataDir, publicId, key] = process.argv.slice(2);
if (!dataDir || !publicId || !key) {
  process.stderr.write('usage: node bench/seal-measure.ts <data dir> <public_id> <api key>\n');
  process.exit(2);
}
const figures = await measure(dataDir, publicId, key);
process.stderr.write(
  `  seal ${figures.sealMs.toFixed(0)} ms, RSS ${(figures.rssBefore / MB).toFixed(0)} → ${(figures.rssPeak / MB).toFixed(0)} MB\n`,
);
process.stdout.write(`${JSON.stringify(figures)}\n`);
