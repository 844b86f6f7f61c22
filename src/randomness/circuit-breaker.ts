import { type Clock, systemClock } from './source.ts';

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before it lets one trial through. */
  cooldownMs: number;
  clock?: Clock;
}

export interface CircuitBreaker {
  /** For metrics; `half_open` once the cooldown has passed, without waiting for a call. */
  readonly state: CircuitState;
  readonly consecutiveFailures: number;
  /**
   * Whether a call may go out now. In `half_open` only one trial is granted per cooldown, so a
   * recovering upstream is not hit by every waiting caller at once.
   */
  canTry(): boolean;
  recordSuccess(): void;
  recordFailure(): void;
}

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const { failureThreshold, cooldownMs, clock = systemClock } = options;
  if (!Number.isInteger(failureThreshold) || failureThreshold < 1) {
    throw new RangeError(`failureThreshold must be a positive integer, got ${failureThreshold}`);
  }
  if (!Number.isFinite(cooldownMs) || cooldownMs < 0) {
    throw new RangeError(`cooldownMs must be a non-negative number, got ${cooldownMs}`);
  }
  let failures = 0;
  let openedAt: number | undefined;
  // When the current half-open trial was granted. A trial whose outcome is never recorded blocks
  // further trials for one cooldown only, not forever.
  let trialAt: number | undefined;

  const elapsed = (since: number) => clock.now().getTime() - since >= cooldownMs;

  return {
    get state(): CircuitState {
      if (openedAt === undefined) return 'closed';
      return trialAt !== undefined || elapsed(openedAt) ? 'half_open' : 'open';
    },
    get consecutiveFailures() {
      return failures;
    },
    canTry() {
      if (openedAt === undefined) return true;
      if (!elapsed(trialAt ?? openedAt)) return false;
      trialAt = clock.now().getTime();
      return true;
    },
    recordSuccess() {
      failures = 0;
      openedAt = undefined;
      trialAt = undefined;
    },
    recordFailure() {
      failures++;
      // Once open, any failure (a failed trial, or a late one from before opening) restarts the cooldown.
      if (openedAt !== undefined || failures >= failureThreshold) {
        openedAt = clock.now().getTime();
        trialAt = undefined;
      }
    },
  };
}
