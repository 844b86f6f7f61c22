import type { FastifyInstance } from 'fastify';
import type { CreateKeyInput } from '../../src/accounts/account.service.ts';
import { type ConfigInput, createConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import type { SubmitToWitness } from '../../src/log/witness-job.ts';
import type { RandomnessTuning } from '../../src/randomness/randomness.setup.ts';
import type { Timers } from '../../src/randomness/timers.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { Clock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/store/store.ts';
import { checkResponsesAgainstDocument } from './response-conformance.ts';
import { type OpenedStore, storeTargets } from './stores.ts';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  services: Services;
  env: Record<string, string>;
  /** A key on a fresh account of its own (business unless said otherwise). */
  key(input?: CreateKeyInput): Promise<string>;
  close(): Promise<void>;
}

export async function startTestApp(
  options: {
    dialect?: 'sqlite' | 'postgres';
    config?: ConfigInput;
    clock?: Clock;
    randomness?: RandomnessTuning;
    submitToWitness?: SubmitToWitness;
    /** Runs the TSA requests' time limits (a fake clock, so a test cuts a slow TSA without waiting). */
    tsaTimers?: Timers;
    /** A store opened beforehand (its cleanup becomes the app's), instead of a fresh one. */
    opened?: OpenedStore;
    /** Extra routes a test needs (registered before the app is ready). */
    routes?: (app: FastifyInstance) => void;
  } = {},
): Promise<TestApp> {
  const targets = await storeTargets();
  const target = targets.find((t) => t.dialect === (options.dialect ?? 'sqlite'))!;
  const opened = options.opened ?? (await target.open());
  const env = {
    ...opened.env,
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
    TYCHE_SOURCES: 'system',
    // Nothing in a test may reach a real relay: a verifiable test points this at its fake chain.
    DRAND_URL: 'http://127.0.0.1:9',
    // Nor a real TSA: timestamps are off unless a test names its fake TSAs.
    TYCHE_TSA_URLS: '',
    ...options.config,
  } as Record<string, string>;
  const config = createConfig(env);
  const metrics = createMetrics();
  const services = createServices(config, opened.store, {
    clock: options.clock,
    registry: metrics.registry,
    randomness: options.randomness,
    submitToWitness: options.submitToWitness,
    tsaTimers: options.tsaTimers,
  });
  const app = await buildApp({ config, store: opened.store, metrics, ...services });
  checkResponsesAgainstDocument(app);
  options.routes?.(app);
  await app.ready();
  return {
    app,
    store: opened.store,
    services,
    env,
    key: async (input = {}) => (await services.accounts.createKey({ plan: 'business', ...input })).key,
    async close() {
      await app.close();
      await opened.cleanup();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
