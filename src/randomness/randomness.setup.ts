import type { Registry } from 'prom-client';
import type { DrandChainInfo } from '../proof/v2-types.ts';
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

/** Where the cascade's levels are, as configured (TYCHE_SOURCES and the upstreams' settings). */
export interface RandomnessSettings {
  /** The levels of the cascade, in order. */
  sources: readonly SourceName[];
  anu: { url?: string | undefined; apiKey?: string | undefined };
  nistUrl: string;
  drand: { url: string; chain: Readonly<DrandChainInfo> };
}

/** Settings that only code (tests, benchmarks) changes; the environment covers the rest. */
export interface RandomnessTuning {
  /** A chain to trust instead of the configured one (test helpers' fake chain). */
  drandChain?: DrandChain;
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

/** Builds the cascade of the configured sources, in order, with its metrics. */
export function createRandomness(
  settings: RandomnessSettings,
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
          url: settings.anu.url,
          apiKey: settings.anu.apiKey,
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
      createBeaconPool(createNistSource({ url: settings.nistUrl, timeoutMs, clock, timers }), common),
    drand: () =>
      createBeaconPool(
        createDrandSource({
          url: settings.drand.url,
          chain: settings.drand.chain,
          ...tuning.drandChain,
          timeoutMs,
          clock,
          timers,
        }),
        common,
      ),
    system: () => createSystemPool(clock),
  };
  const pools = settings.sources.map((name) => factories[name]());
  const cascade = createCascade(pools, {
    timers,
    served: (material, operations) => metrics.operations.inc({ source: material.source }, operations),
  });
  metrics.observe(cascade.state);
  return cascade;
}
