export const SOURCE_NAMES = ['anu', 'nist', 'drand', 'system'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/**
 * One delivery from an upstream. A private batch (`anu`, `system`) is consumed: its bytes serve
 * one operation each. A beacon value (`nist`, `drand`) is public, so it may serve every operation
 * while fresh, and every user of it must mix in fresh system entropy.
 */
export interface SourceBatch {
  source: SourceName;
  kind: 'private' | 'beacon';
  bytes: Uint8Array;
  /** What identifies the upstream data: ANU batch id, NIST pulse URI, drand round. */
  reference: string;
  /** When the upstream produced (beacon) or delivered (private) the value. */
  producedAt: Date;
  fetchedAt: Date;
  /**
   * Beacons only: the value may serve operations until this instant (CONTRACT §4: NIST two
   * periods, drand five periods after producedAt). Absent for private batches.
   */
  expiresAt?: Date;
}

export interface RandomSource {
  readonly name: SourceName;
  readonly kind: 'private' | 'beacon';
  /** Fetches one batch; rejects with SourceError on any timeout, transport or format problem. */
  fetch(signal?: AbortSignal): Promise<SourceBatch>;
}

export class SourceError extends Error {
  readonly source: SourceName;
  constructor(source: SourceName, message: string, options?: ErrorOptions) {
    super(`${source}: ${message}`, options);
    this.name = 'SourceError';
    this.source = source;
  }
}

export { type Clock, systemClock } from '../shared/clock.ts';
