import { Counter, type Registry } from 'prom-client';

/** Per TSA URL: every request that brought no token kept, and every object whose token was given up. */
export function createTimestampMetrics(registry: Registry | undefined) {
  const registers = registry ? [registry] : [];
  return {
    failures: new Counter({
      name: 'tyche_tsa_failures_total',
      help: 'Requests to a TSA that brought no token kept (unreachable, late, refused, or a token that failed a check)',
      labelNames: ['tsa'] as const,
      registers,
    }),
    givenUp: new Counter({
      name: 'tyche_tsa_given_up_total',
      help: 'Seals and certificates left without a token from a TSA once its retries ran out (a seal at its round)',
      labelNames: ['tsa'] as const,
      registers,
    }),
  };
}

export type TimestampMetrics = ReturnType<typeof createTimestampMetrics>;
