import { createHash } from 'node:crypto';
import type { ConfigInput } from '../../src/config.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import type { SubmitToWitness } from '../../src/log/witness-job.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { type FakeDrand, startFakeDrand } from '../helpers/fake-upstreams.ts';
import type { OpenedStore } from '../helpers/stores.ts';
import { API } from './giveaway-helpers.ts';

export interface VerifiableApp extends TestApp {
  clock: FakeClock;
  drand: FakeDrand;
  runner: JobRunner;
  /** Moves the fake clock to `round`'s time (plus a little), so the fake chain has published it. */
  reachRound(round: number): void;
}

/** A test app whose drand relay is a fake chain with real BLS signatures on the test's clock. */
export async function startVerifiableApp(
  options: {
    dialect?: 'sqlite' | 'postgres';
    drawWaitMs?: number;
    delayRounds?: number;
    config?: ConfigInput;
    submitToWitness?: SubmitToWitness;
    opened?: OpenedStore;
  } = {},
): Promise<VerifiableApp> {
  const clock = createFakeClock(Date.now());
  const drand = await startFakeDrand({ clock });
  const t = await startTestApp({
    dialect: options.dialect,
    clock,
    config: {
      DRAND_URL: drand.url,
      DRAND_CHAIN: JSON.stringify(drand.info),
      TYCHE_DRAW_WAIT_MS: String(options.drawWaitMs ?? 0),
      TYCHE_SEAL_DELAY_ROUNDS: String(options.delayRounds ?? 10),
      ...options.config,
    },
    submitToWitness: options.submitToWitness,
    opened: options.opened,
  });
  const runner = createJobRunner({
    jobs: t.services.jobs,
    clock,
    handlers: t.services.jobHandlers,
  });
  return {
    ...t,
    clock,
    drand,
    runner,
    reachRound(round: number) {
      const at = (drand.genesis + (round - 1) * drand.period) * 1000;
      const now = clock.now().getTime();
      if (at + 1 > now) clock.advance(at + 1 - now);
    },
    async close() {
      await runner.stop();
      await t.close();
      await drand.close();
    },
  };
}

export async function createVerifiable(
  t: Pick<TestApp, 'app'>,
  key: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: API,
    headers: bearer(key),
    payload: { title: 'Verifiable', winners_count: 1, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return res.json().public_id;
}

export function seal(t: Pick<TestApp, 'app'>, key: string, publicId: string) {
  return t.app.inject({ method: 'POST', url: `${API}/${publicId}/seal`, headers: bearer(key) });
}

const sha = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/**
 * RFC 9162 §2.1.1 Merkle Tree Hash written from its recursive definition, independent of the
 * bottom-up code the service runs: the tests compare the two.
 */
export function referenceRoot(leafHashes: Uint8Array[]): string {
  const mth = (from: number, to: number): Uint8Array => {
    const n = to - from;
    if (n === 1) return leafHashes[from];
    let k = 1;
    while (k * 2 < n) k *= 2;
    return sha(Buffer.concat([Buffer.from([1]), mth(from, from + k), mth(from + k, to)]));
  };
  if (leafHashes.length === 0) return Buffer.from(sha(new Uint8Array(0))).toString('hex');
  return Buffer.from(mth(0, leafHashes.length)).toString('hex');
}

/** leaf_hash of §7.1 written out byte by byte, for comparison with the service's. */
export function referenceLeaf(salt: string, telegramId: number): string {
  const id = Buffer.alloc(8);
  id.writeBigUInt64BE(BigInt(telegramId));
  const data = Buffer.concat([
    Buffer.from([0]),
    Buffer.from('tyche-entrant-v2'),
    Buffer.from([0]),
    Buffer.from(salt, 'hex'),
    id,
  ]);
  return createHash('sha256').update(data).digest('hex');
}
