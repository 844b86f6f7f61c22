import { createHash } from 'node:crypto';
import {
  beaconProblem,
  parseChainInfo,
  QUICKNET,
  drandRoundMessage as roundMessage,
} from '../../proof/drand.ts';
import { roundTimeMs as chainRoundTimeMs, roundOf } from '../../proof/draw-v2.ts';
import { toHex } from '../../proof/hex.ts';
import type { DrandChainInfo } from '../../proof/v2-types.ts';
import { type Clock, type RandomSource, type SourceBatch, SourceError, systemClock } from '../source.ts';
import type { Timers } from '../timers.ts';
import { assertTimeout, type FetchFn, fetchJson, readFields } from './http-json.ts';

export const DRAND_URL = 'https://api.drand.sh';
/** A drand chain: hash (hex), BLS public key (hex, 96 bytes on G2), genesis and period in seconds. */
export interface DrandChain {
  chainHash: string;
  publicKey: string;
  genesis: number;
  period: number;
}

/** League of Entropy quicknet (scheme bls-unchained-g1-rfc9380): the default chain. */
export const DRAND_QUICKNET: Readonly<DrandChain> = {
  chainHash: QUICKNET.hash,
  publicKey: QUICKNET.public_key,
  genesis: QUICKNET.genesis_time,
  period: QUICKNET.period,
};
/** CONTRACT §4: a round serves operations for at most five periods after its time. */
export const DRAND_FRESH_PERIODS = 5;
export { DRAND_DST } from '../../proof/drand.ts';

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

function chainInfo(chain: Readonly<DrandChain>): DrandChainInfo {
  return {
    public_key: chain.publicKey,
    period: chain.period,
    genesis_time: chain.genesis,
    hash: chain.chainHash,
    schemeID: 'bls-unchained-g1-rfc9380',
  };
}

/**
 * Give all four chain fields or none (quicknet): a mix would check one chain's rounds with another's
 * key or clock.
 */
export interface DrandSourceOptions extends Partial<DrandChain> {
  url?: string;
  timeoutMs: number;
  clock?: Clock;
  /** Runs the timeout; Node's timers by default. */
  timers?: Timers;
  fetch?: FetchFn;
}

export interface DrandBeacon {
  round: number;
  randomness: Uint8Array;
  signature: Uint8Array;
}

export function createDrandSource(options: DrandSourceOptions): RandomSource {
  const { timeoutMs, clock = systemClock } = options;
  assertTimeout(timeoutMs);
  const chain = chainOf(options);
  // Refuses, at start, a key that is not a point of G2.
  const info = parseChainInfo(chainInfo(chain));
  const url = `${(options.url ?? DRAND_URL).replace(/\/+$/, '')}/${chain.chainHash}/public/latest`;
  const periodMs = chain.period * 1000;
  let lastRound = 0;

  return {
    name: 'drand',
    kind: 'beacon',
    async fetch(signal?: AbortSignal): Promise<SourceBatch> {
      const body = await fetchJson({
        source: 'drand',
        url,
        timeoutMs,
        fetch: options.fetch,
        timers: options.timers,
        signal,
      });
      const beacon = parseDrandBeacon(body);
      verifyBeaconOf(beacon, info);
      const now = clock.now();
      const producedAt = new Date(roundTimeMs(beacon.round, chain));
      const age = now.getTime() - producedAt.getTime();
      if (age > DRAND_FRESH_PERIODS * periodMs) {
        const expected = drandRoundAt(now, chain);
        throw new SourceError('drand', `stale round ${beacon.round}: expected about ${expected}`);
      }
      // A relay that serves an older round than one we already saw is lagging or replaying.
      if (beacon.round < lastRound) {
        throw new SourceError('drand', `round went back from ${lastRound} to ${beacon.round}`);
      }
      lastRound = beacon.round;
      return {
        source: 'drand',
        kind: 'beacon',
        bytes: beacon.randomness,
        // The bare decimal round: with the chain it names the public record `/public/<round>`.
        reference: String(beacon.round),
        producedAt,
        fetchedAt: now,
        expiresAt: new Date(producedAt.getTime() + DRAND_FRESH_PERIODS * periodMs),
      };
    },
  };
}

function chainOf(options: DrandSourceOptions): Readonly<DrandChain> {
  const { chainHash, publicKey, genesis, period } = options;
  const given = [chainHash, publicKey, genesis, period].filter((v) => v !== undefined).length;
  if (given === 0) return DRAND_QUICKNET;
  if (chainHash === undefined || publicKey === undefined || genesis === undefined || period === undefined) {
    throw new TypeError('drand: give chainHash, publicKey, genesis and period together, or none');
  }
  if (!/^[0-9a-f]{64}$/i.test(chainHash)) throw new TypeError('drand: chainHash must be 64 hex characters');
  if (!Number.isSafeInteger(genesis) || !(Number.isInteger(period) && period > 0)) {
    throw new RangeError('drand: genesis and period must be integers of seconds, period > 0');
  }
  return { chainHash, publicKey, genesis, period };
}

export function parseDrandBeacon(body: unknown): DrandBeacon {
  const fields = readFields('drand', body, 'body');
  return {
    round: fields.int('round', 1),
    randomness: fields.hex('randomness', 32),
    signature: fields.hex('signature', 48),
  };
}

/** What quicknet signs for a round: SHA-256 of the round as an 8-byte big-endian integer. */
export function drandRoundMessage(round: number): Uint8Array {
  return roundMessage(round, sha256);
}

/** The round being produced at `time`: floor((t − genesis) / period) + 1. */
export function drandRoundAt(time: Date, chain: Pick<DrandChain, 'genesis' | 'period'>): number {
  return roundOf(time.getTime(), { genesis_time: chain.genesis, period: chain.period });
}

function roundTimeMs(round: number, chain: Pick<DrandChain, 'genesis' | 'period'>): number {
  return chainRoundTimeMs(round, { genesis_time: chain.genesis, period: chain.period });
}

function verifyBeaconOf(beacon: DrandBeacon, chain: DrandChainInfo): void {
  const record = {
    round: beacon.round,
    randomness: toHex(beacon.randomness),
    signature: toHex(beacon.signature),
  };
  const problem = beaconProblem(chain, record, sha256);
  if (problem !== null) throw new SourceError('drand', `round ${beacon.round}: ${problem}`);
}

/** Checks a quicknet-scheme round under `publicKey` (hex, 96 bytes on G2); throws a SourceError. */
export function verifyDrandBeacon(beacon: DrandBeacon, publicKey: string): void {
  verifyBeaconOf(beacon, chainInfo({ ...DRAND_QUICKNET, publicKey }));
}
