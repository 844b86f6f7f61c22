import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import { type CircuitBreaker, createCircuitBreaker } from './circuit-breaker.ts';
import type { RandomSource, SourceBatch, SourceName } from './source.ts';
import { systemBytes } from './system-entropy.ts';
import { systemTimers, type Timers } from './timers.ts';

/** Source material for one operation, with what identifies where it came from. */
export interface Material {
  source: SourceName;
  kind: 'private' | 'beacon';
  /** A private chunk (consumed), or the complete public beacon value (shared). */
  bytes: Uint8Array;
  reference: string;
  fetchedAt: Date;
}

export interface PoolState {
  source: SourceName;
  breaker: CircuitBreaker['state'];
  /** Private sources: buffered bytes. Beacons: 1 while a fresh value is held, else 0. */
  fill: number;
}

export interface PoolEvents {
  fetched(source: SourceName): void;
  failed(source: SourceName, error: unknown): void;
}

export interface SourcePool {
  readonly name: SourceName;
  /** Material for one operation if the pool can serve right now; never waits. */
  tryTake(bytes: number): Material | undefined;
  /** Starts a refill if one may go out; resolves when the pool's fetch in flight settles. */
  refilled(): Promise<void> | undefined;
  /** Milliseconds until this pool may try its upstream again (breaker or throttle), 0 if now. */
  retryInMs(): number;
  state(): PoolState;
}

export interface PoolOptions {
  clock: Clock;
  events: PoolEvents;
  fetchTimeoutMs: number;
  /** Runs the fetch timeout; Node's timers by default. */
  timers?: Timers;
  /** Least time between two fetches: the keyless ANU endpoint allows about one a minute. */
  minIntervalMs?: number;
  failureThreshold?: number;
  cooldownMs?: number;
}

/**
 * Shared fetch discipline: one fetch in flight at a time, a circuit breaker, a throttle, and a
 * timeout of its own so a hanging upstream never holds a request longer than its time budget.
 */
function createFetcher(source: RandomSource, options: PoolOptions, accept: (batch: SourceBatch) => void) {
  const breaker = createCircuitBreaker({
    failureThreshold: options.failureThreshold ?? 3,
    cooldownMs: options.cooldownMs ?? 30_000,
    clock: options.clock,
  });
  const minInterval = options.minIntervalMs ?? 0;
  const timers = options.timers ?? systemTimers;
  let inFlight: Promise<void> | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;

  const throttledFor = () => Math.max(0, lastStart + minInterval - options.clock.now().getTime());

  return {
    breaker,
    retryInMs(): number {
      if (breaker.state === 'open') return Math.max(throttledFor(), options.cooldownMs ?? 30_000);
      return throttledFor();
    },
    start(): Promise<void> | undefined {
      if (inFlight) return inFlight;
      if (throttledFor() > 0 || !breaker.canTry()) return undefined;
      lastStart = options.clock.now().getTime();
      inFlight = source
        .fetch(timers.timeout(options.fetchTimeoutMs))
        .then(
          (batch) => {
            breaker.recordSuccess();
            options.events.fetched(source.name);
            accept(batch);
          },
          (error: unknown) => {
            breaker.recordFailure();
            options.events.failed(source.name, error);
          },
        )
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
  };
}

/**
 * A private source (ANU): buffered batches whose bytes are handed out once each, refilled in
 * the background when the buffer runs low.
 */
export function createPrivatePool(
  source: RandomSource,
  options: PoolOptions & { lowWater?: number },
): SourcePool {
  const batches: { batch: SourceBatch; offset: number }[] = [];
  const available = () => batches.reduce((sum, b) => sum + b.batch.bytes.length - b.offset, 0);
  const fetcher = createFetcher(source, options, (batch) => batches.push({ batch, offset: 0 }));
  const lowWater = options.lowWater ?? 256;

  return {
    name: source.name,
    tryTake(bytes) {
      // A chunk never straddles two batches, so its reference names exactly one.
      while (batches.length > 0 && batches[0].batch.bytes.length - batches[0].offset < bytes) batches.shift();
      const head = batches[0];
      let material: Material | undefined;
      if (head) {
        const start = head.offset;
        head.offset += bytes;
        material = {
          source: source.name,
          kind: 'private',
          bytes: head.batch.bytes.subarray(start, start + bytes),
          reference: `${head.batch.reference}#${start}-${start + bytes}`,
          fetchedAt: head.batch.fetchedAt,
        };
      }
      if (available() < lowWater) fetcher.start();
      return material;
    },
    refilled: () => fetcher.start(),
    retryInMs: () => fetcher.retryInMs(),
    state: () => ({ source: source.name, breaker: fetcher.breaker.state, fill: available() }),
  };
}

/**
 * A public beacon (NIST, drand): its newest value serves every operation while fresh, and a
 * newer one is fetched in the background once half the freshness window has passed.
 */
export function createBeaconPool(source: RandomSource, options: PoolOptions): SourcePool {
  let latest: SourceBatch | undefined;
  const fetcher = createFetcher(source, options, (batch) => {
    if (!latest || batch.producedAt >= latest.producedAt) latest = batch;
  });
  const expiry = (batch: SourceBatch) =>
    (batch.expiresAt ?? new Date(batch.producedAt.getTime() + 120_000)).getTime();
  const fresh = () => latest !== undefined && options.clock.now().getTime() < expiry(latest);

  return {
    name: source.name,
    tryTake() {
      const now = options.clock.now().getTime();
      if (!latest || now >= (latest.producedAt.getTime() + expiry(latest)) / 2) fetcher.start();
      if (!fresh() || !latest) return undefined;
      return {
        source: source.name,
        kind: 'beacon',
        bytes: latest.bytes,
        reference: latest.reference,
        fetchedAt: latest.fetchedAt,
      };
    },
    refilled: () => fetcher.start(),
    retryInMs: () => fetcher.retryInMs(),
    state: () => ({ source: source.name, breaker: fetcher.breaker.state, fill: fresh() ? 1 : 0 }),
  };
}

/** The operating system's CSPRNG serves at once and cannot fail: no buffer, no fetch. */
export function createSystemPool(clock: Clock): SourcePool {
  return {
    name: 'system',
    tryTake: (bytes) => ({
      source: 'system',
      kind: 'private',
      bytes: systemBytes(bytes),
      reference: `system:${randomUUID()}`,
      fetchedAt: clock.now(),
    }),
    refilled: () => undefined,
    retryInMs: () => 0,
    state: () => ({ source: 'system', breaker: 'closed', fill: 1 }),
  };
}
