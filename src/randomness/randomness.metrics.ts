import { Counter, Gauge, type Registry } from 'prom-client';
import type { PoolState } from './pool.ts';

const BREAKER_LEVEL = { closed: 0, half_open: 1, open: 2 } as const;

export function createRandomnessMetrics(registry: Registry) {
  const fetches = new Counter({
    name: 'tyche_source_fetches_total',
    help: 'Successful upstream fetches by source',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: 'tyche_source_failures_total',
    help: 'Failed upstream fetches by source (timeout, transport, format)',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const operations = new Counter({
    name: 'tyche_operations_total',
    help: 'Randomness operations by the source that served them',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  let read: () => PoolState[] = () => [];
  new Gauge({
    name: 'tyche_source_breaker_state',
    help: 'Circuit breaker per source: 0 closed, 1 half open, 2 open',
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      for (const s of read()) this.set({ source: s.source }, BREAKER_LEVEL[s.breaker]);
    },
  });
  new Gauge({
    name: 'tyche_source_pool_fill',
    help: 'Per source: bytes buffered (private sources) or 1 while a fresh beacon value is held',
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      for (const s of read()) this.set({ source: s.source }, s.fill);
    },
  });
  return {
    fetches,
    failures,
    operations,
    observe(state: () => PoolState[]) {
      read = state;
    },
  };
}
