import { AppError } from '../shared/errors.ts';
import type { Material, PoolState, SourcePool } from './pool.ts';
import { systemTimers, type Timers } from './timers.ts';

const DEFAULT_RETRY_AFTER_S = 5;

/**
 * Serves operations from the pools in cascade order. Each operation takes from the first pool
 * that can serve at once, so a drained or failing upstream never slows a request while a later
 * level can answer; only when no level can serve does it wait for refills already under way,
 * and never past the request's time budget.
 */
export function createCascade(
  pools: readonly SourcePool[],
  options: {
    served?: (material: Material, operations: number) => void;
    /** Measures the time budget and waits out its rest; Node's timers by default. */
    timers?: Timers;
  } = {},
) {
  const timers = options.timers ?? systemTimers;
  const takeNow = (bytes: number): Material | undefined => {
    for (const pool of pools) {
      const material = pool.tryTake(bytes);
      if (material) return material;
    }
    return undefined;
  };

  const unavailable = () => {
    // The soonest any level may try its upstream again; a plain guess when none is waiting.
    const waits = pools.map((pool) => pool.retryInMs()).filter((ms) => ms > 0);
    const retryMs = waits.length > 0 ? Math.min(...waits) : DEFAULT_RETRY_AFTER_S * 1000;
    const seconds = Math.max(1, Math.ceil(retryMs / 1000));
    return new AppError(
      'randomness_unavailable',
      `No randomness source could serve in time; retry after ${seconds} s`,
      { retryAfterSeconds: seconds },
    );
  };

  return {
    /**
     * `count` materials of `bytes` each, or 503 once the budget is spent. Each serves one request
     * of `operations` values (one seed and keystream for all of them), counted as such.
     */
    async acquire(count: number, bytes: number, budgetMs: number, operations = 1): Promise<Material[]> {
      const deadline = timers.monotonicMs() + budgetMs;
      const out: Material[] = [];
      while (out.length < count) {
        const material = takeNow(bytes);
        if (material) {
          options.served?.(material, operations);
          out.push(material);
          continue;
        }
        const refills = pools
          .map((pool) => pool.refilled())
          .filter((p): p is Promise<void> => p !== undefined);
        const left = deadline - timers.monotonicMs();
        if (refills.length === 0 || left <= 0) throw unavailable();
        const timer = new AbortController();
        await Promise.race([Promise.any(refills), timers.sleep(left, timer.signal)]);
        timer.abort();
      }
      return out;
    },

    /** Starts every pool's first fetch so the first requests find material waiting; resolves when all settle. */
    async warm(): Promise<void> {
      await Promise.allSettled(pools.map((pool) => pool.refilled()));
    },

    state(): PoolState[] {
      return pools.map((pool) => pool.state());
    },
  };
}

export type Cascade = ReturnType<typeof createCascade>;
