export interface FakeClock {
  now(): Date;
  advance(ms: number): void;
}

/** A clock that moves only when told to, so tests never sleep on wall-clock time. */
export function createFakeClock(start: Date | number | string = '2026-01-01T00:00:00.000Z'): FakeClock {
  let t = new Date(start).getTime();
  if (Number.isNaN(t)) throw new RangeError(`invalid start time ${String(start)}`);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}
