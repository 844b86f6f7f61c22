import { randomBytes, randomUUID } from 'node:crypto';
import { type Clock, type RandomSource, type SourceBatch, systemClock } from '../source.ts';

export interface SystemSourceOptions {
  /** Bytes per batch; default 1024, the size of an ANU batch. */
  length?: number;
  clock?: Clock;
}

/** The operating system's CSPRNG: always available, the honest label when nothing external served. */
export function createSystemSource(options: SystemSourceOptions = {}): RandomSource {
  const { length = 1024, clock = systemClock } = options;
  if (!Number.isInteger(length) || length < 1) {
    throw new RangeError(`system source length must be a positive integer, got ${length}`);
  }
  return {
    name: 'system',
    kind: 'private',
    // The signal is ignored on purpose: the last resort of the cascade answers at once and never fails.
    async fetch(): Promise<SourceBatch> {
      const now = clock.now();
      return {
        source: 'system',
        kind: 'private',
        bytes: new Uint8Array(randomBytes(length)),
        reference: `system:${randomUUID()}`,
        producedAt: now,
        fetchedAt: now,
      };
    },
  };
}
