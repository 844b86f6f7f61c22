import { setTimeout as delay } from 'node:timers/promises';

/**
 * Timers as a dependency, as the clock is: the upstream timeouts and the time budget run on
 * Node's timers in production, and on a fake clock in tests, which fires them as it advances
 * instead of making a test wait for a hang to be cut.
 */
export interface Timers {
  /** A signal that aborts with a `TimeoutError` once `ms` have passed, as `AbortSignal.timeout` does. */
  timeout(ms: number): AbortSignal;
  /** Resolves once `ms` have passed, or as soon as `signal` aborts; never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Milliseconds on a scale that only moves forward, for deadlines (not a time of day). */
  monotonicMs(): number;
}

export const systemTimers: Timers = {
  timeout: (ms) => AbortSignal.timeout(ms),
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => {}),
  monotonicMs: () => performance.now(),
};
