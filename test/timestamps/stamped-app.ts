import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import { type Stamp, TSA_BUDGET_MS } from '../../src/timestamps/timestamp.service.ts';
import { API } from '../giveaways/giveaway-helpers.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { type FakeTsa, startFakeTsa, writeTsaTrust } from '../helpers/fake-tsa.ts';
import { type FakeDrand, startFakeDrand } from '../helpers/fake-upstreams.ts';

export { TSA_BUDGET_MS };

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field by each test
type Json = any;

export interface StampedApp extends TestApp {
  clock: FakeClock;
  drand: FakeDrand;
  runner: JobRunner;
  /** Two fake TSAs with PKIs of their own, both in TYCHE_TSA_URLS and TYCHE_TSA_TRUST. */
  tsas: [FakeTsa, FakeTsa];
  /** What the store keeps for a seal or certificate. */
  stampsOf(kind: 'seal' | 'certificate', id: string): Promise<Stamp[]>;
  /** `GET` one of the app's JSON answers with the owner's key. */
  get(url: string, key: string): Promise<{ statusCode: number; body: string; json(): Json }>;
  /** The value of one sample of /metrics, or undefined. */
  metric(sample: string): Promise<number | undefined>;
}

/**
 * A verifiable-draw app (fake drand chain, fake clock) with timestamps on: two fake TSAs whose
 * genTime and whose requests' time limit both run on the test's clock.
 */
export async function startStampedApp(dialect: 'sqlite' | 'postgres'): Promise<StampedApp> {
  const clock = createFakeClock(Date.now());
  const drand = await startFakeDrand({ clock });
  const tsas: [FakeTsa, FakeTsa] = [
    await startFakeTsa({ clock, name: 'Fake TSA One' }),
    await startFakeTsa({ clock, name: 'Fake TSA Two' }),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'tyche-tsa-'));
  const t = await startTestApp({
    dialect,
    clock,
    tsaTimers: clock,
    config: {
      DRAND_URL: drand.url,
      DRAND_CHAIN: JSON.stringify(drand.info),
      TYCHE_DRAW_WAIT_MS: '0',
      TYCHE_SEAL_DELAY_ROUNDS: '10',
      TYCHE_TSA_URLS: tsas.map((tsa) => tsa.url).join(','),
      TYCHE_TSA_TRUST: writeTsaTrust(join(dir, 'tsa-roots.pem'), tsas),
    },
  });
  const runner = createJobRunner({ jobs: t.services.jobs, clock, handlers: t.services.jobHandlers });
  return {
    ...t,
    clock,
    drand,
    runner,
    tsas,
    stampsOf: (kind, id) => t.services.timestamps.of(kind, id),
    get: (url, key) => t.app.inject({ method: 'GET', url, headers: bearer(key) }),
    async metric(sample) {
      const text = (await t.app.inject({ url: '/metrics' })).body;
      const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
      return line === undefined ? undefined : Number(line.slice(sample.length + 1));
    },
    async close() {
      await runner.stop();
      await t.close();
      await drand.close();
      for (const tsa of tsas) await tsa.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A verifiable giveaway of `key` with `count` entrants, not sealed yet. */
export async function verifiableWith(t: StampedApp, key: string, count = 5): Promise<string> {
  const made = await t.app.inject({
    method: 'POST',
    url: API,
    headers: bearer(key),
    payload: { title: 'Stamped', winners_count: 1, reserve_count: 1 },
  });
  const publicId = made.json().public_id as string;
  await t.app.inject({
    method: 'POST',
    url: `${API}/${publicId}/participants`,
    headers: bearer(key),
    payload: { participants: Array.from({ length: count }, (_, i) => ({ telegram_id: 500 + i })) },
  });
  return publicId;
}
