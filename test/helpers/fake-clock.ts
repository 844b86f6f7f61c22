import type { Timers } from '../../src/randomness/timers.ts';

export interface FakeClock extends Timers {
  now(): Date;
  /** Moves time on, firing every timer that falls due on the way, soonest first. */
  advance(ms: number): void;
}

interface Timer {
  due: number;
  /** Order of setting, so timers due at the same instant fire in that order, as Node's do. */
  seq: number;
  fire(): void;
}

/**
 * A clock that moves only when told to, so tests never sleep on wall-clock time. It also runs the
 * timers handed to it (timeouts, sleeps), firing them when `advance` passes their time.
 */
export function createFakeClock(start: Date | number | string = '2026-01-01T00:00:00.000Z'): FakeClock {
  let t = new Date(start).getTime();
  if (Number.isNaN(t)) throw new RangeError(`invalid start time ${String(start)}`);
  let seq = 0;
  const timers = new Set<Timer>();

  const schedule = (ms: number, fire: () => void): Timer => {
    const timer = { due: t + Math.max(0, ms), seq: seq++, fire };
    timers.add(timer);
    return timer;
  };

  return {
    now: () => new Date(t),
    monotonicMs: () => t,
    advance(ms: number) {
      if (!(ms >= 0)) throw new RangeError(`a clock only moves forward, got ${ms}`);
      const target = t + ms;
      for (;;) {
        let next: Timer | undefined;
        for (const timer of timers) {
          if (
            timer.due <= target &&
            (!next || timer.due < next.due || (timer.due === next.due && timer.seq < next.seq))
          ) {
            next = timer;
          }
        }
        if (!next) break;
        timers.delete(next);
        // A timer's callback sees the time it was due at, as it would on a real clock.
        t = next.due;
        next.fire();
      }
      t = target;
    },
    timeout(ms: number): AbortSignal {
      const controller = new AbortController();
      schedule(ms, () =>
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      );
      return controller.signal;
    },
    sleep(ms: number, signal?: AbortSignal): Promise<void> {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const timer = schedule(ms, () => {
          signal?.removeEventListener('abort', cancel);
          resolve();
        });
        // A cancelled sleep leaves no timer behind to fire later.
        const cancel = () => {
          timers.delete(timer);
          resolve();
        };
        signal?.addEventListener('abort', cancel, { once: true });
      });
    },
  };
}
