import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { Clock } from '../shared/clock.ts';
import { createCascade } from './cascade.ts';
import {
  createBeaconPool,
  createPrivatePool,
  createSystemPool,
  type PoolEvents,
  type SourcePool,
} from './pool.ts';
import { createRandomnessMetrics } from './randomness.metrics.ts';
import type { SourceName } from './source.ts';
import { createAnuSource } from './sources/anu.source.ts';
import { createDrandSource, type DrandChain } from './sources/drand.source.ts';
import { createNistSource } from './sources/nist.source.ts';
import type { Timers } from './timers.ts';

/** Settings that only code (tests, benchmarks) changes; the environment covers the rest. */
export interface RandomnessTuning {
  drandChain?: Partial<DrandChain>;
  fetchTimeoutMs?: number;
  /** Least time between two ANU calls; keyless ANU allows about one a minute. */
  anuMinIntervalMs?: number;
  failureThreshold?: number;
  cooldownMs?: number;
  log?: (source: SourceName, error: unknown) => void;
  /** Told of every fetch that served, as `log` is of every one that failed. */
  fetched?: (source: SourceName) => void;
  /** Runs the upstream timeouts and the time budget; Node's timers unless a test drives them. */
  timers?: Timers;
}

const DEFAULT_FETCH_TIMEOUT_MS = 5000;
const ANU_KEYLESS_INTERVAL_MS = 60_000;

/** Builds the cascade of TYCHE_SOURCES, in order, with its metrics. */
export function createRandomnessFromConfig(
  config: Config,
  clock: Clock,
  registry: Registry,
  tuning: RandomnessTuning = {},
) {
  const metrics = createRandomnessMetrics(registry);
  const events: PoolEvents = {
    fetched: (source) => {
      metrics.fetches.inc({ source });
      tuning.fetched?.(source);
    },
    failed: (source, error) => {
      metrics.failures.inc({ source });
      tuning.log?.(source, error);
    },
  };
  const timeoutMs = tuning.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const { timers } = tuning;
  const common = {
    clock,
    timers,
    events,
    fetchTimeoutMs: timeoutMs,
    failureThreshold: tuning.failureThreshold,
    cooldownMs: tuning.cooldownMs,
  };
  const factories: Record<SourceName, () => SourcePool> = {
    anu: () =>
      createPrivatePool(
        createAnuSource({
          url: config.ANU_QRNG_URL,
          apiKey: config.ANU_QRNG_API_KEY,
          timeoutMs,
          clock,
          timers,
        }),
        {
          ...common,
          minIntervalMs: tuning.anuMinIntervalMs ?? ANU_KEYLESS_INTERVAL_MS,
        },
      ),
    nist: () =>
      createBeaconPool(createNistSource({ url: config.NIST_BEACON_URL, timeoutMs, clock, timers }), common),
    drand: () =>
      createBeaconPool(
        createDrandSource({
          url: config.DRAND_URL,
          timeoutMs,
          clock,
          timers,
          ...chainOfConfig(config.DRAND_CHAIN),
          ...tuning.drandChain,
        }),
        common,
      ),
    system: () => createSystemPool(clock),
  };
  const pools = config.TYCHE_SOURCES.map((name) => factories[name]());
  const cascade = createCascade(pools, {
    timers,
    served: (material, operations) => metrics.operations.inc({ source: material.source }, operations),
  });
  metrics.observe(cascade.state);
  return cascade;
}

/** The configured chain in the source's terms (quicknet is the source's own default). */
function chainOfConfig(chain: Config['DRAND_CHAIN']): Partial<DrandChain> {
  return {
    chainHash: chain.hash,
    publicKey: chain.public_key,
    genesis: chain.genesis_time,
    period: chain.period,
  };
}
