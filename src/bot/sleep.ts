import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`, or rejects once `signal` aborts; tests pass one that does not touch the clock. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });
