import { createHash } from 'node:crypto';
import { parseChainInfo, QUICKNET, drandRoundMessage as roundMessage } from '../../proof/drand.ts';
import { roundOf, roundTimeMs } from '../../proof/draw-v2.ts';
import { fromHex } from '../../proof/hex.ts';
import type { DrandChainInfo } from '../../proof/v2-types.ts';
import { type Clock, type RandomSource, type SourceBatch, SourceError, systemClock } from '../source.ts';
import { checkRound, createDrandClient, DRAND_URL, readRound } from './drand-client.ts';
import { assertTimeout, type HttpSourceOptions } from './http-json.ts';

export { DRAND_DST } from '../../proof/drand.ts';
export { DRAND_URL } from './drand-client.ts';

/**
 * A chain in the camelCase names that callers outside randomness/ still use (the PDF, the CLI
 * verifier, the test helpers). Everything here works on proof's DrandChainInfo; this shape is
 * converted to it at once.
 */
export interface DrandChain {
  chainHash: string;
  publicKey: string;
  genesis: number;
  period: number;
}

/** League of Entropy quicknet (scheme bls-unchained-g1-rfc9380), in the camelCase names. */
export const DRAND_QUICKNET: Readonly<DrandChain> = {
  chainHash: QUICKNET.hash,
  publicKey: QUICKNET.public_key,
  genesis: QUICKNET.genesis_time,
  period: QUICKNET.period,
};
/** CONTRACT §4: a round serves operations for at most five periods after its time. */
export const DRAND_FRESH_PERIODS = 5;

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

/**
 * `chain` is the chain to trust (quicknet when absent). The camelCase fields are the older way
 * to say the same: all four or none; given, they win over `chain` (the test helpers point a
 * configured source at their fake chain this way).
 */
export interface DrandSourceOptions extends Partial<DrandChain>, HttpSourceOptions {
  chain?: Readonly<DrandChainInfo>;
  url?: string;
  clock?: Clock;
}

export interface DrandBeacon {
  round: number;
  randomness: Uint8Array;
  signature: Uint8Array;
}

export function createDrandSource(options: DrandSourceOptions): RandomSource {
  const { timeoutMs, clock = systemClock } = options;
  assertTimeout(timeoutMs);
  // Refuses, at start, a key that is not a point of G2.
  const chain = parseChainInfo(chainOf(options));
  const client = createDrandClient({
    url: options.url ?? DRAND_URL,
    chain,
    timeoutMs,
    fetch: options.fetch,
    timers: options.timers,
  });
  const freshMs = DRAND_FRESH_PERIODS * chain.period * 1000;
  let lastRound = 0;

  return {
    name: 'drand',
    kind: 'beacon',
    async fetch(signal?: AbortSignal): Promise<SourceBatch> {
      const beacon = await client.latest(signal);
      const now = clock.now();
      const producedAt = new Date(roundTimeMs(beacon.round, chain));
      if (now.getTime() - producedAt.getTime() > freshMs) {
        const expected = roundOf(now.getTime(), chain);
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
        bytes: fromHex(beacon.randomness),
        // The bare decimal round: with the chain it names the public record `/public/<round>`.
        reference: String(beacon.round),
        producedAt,
        fetchedAt: now,
        expiresAt: new Date(producedAt.getTime() + freshMs),
      };
    },
  };
}

function chainOf(options: DrandSourceOptions): Readonly<DrandChainInfo> {
  const { chainHash, publicKey, genesis, period } = options;
  const given = [chainHash, publicKey, genesis, period].filter((v) => v !== undefined).length;
  if (given === 0) return options.chain ?? QUICKNET;
  if (chainHash === undefined || publicKey === undefined || genesis === undefined || period === undefined) {
    throw new TypeError('drand: give chainHash, publicKey, genesis and period together, or none');
  }
  return chainInfoOf({ chainHash, publicKey, genesis, period });
}

function chainInfoOf(chain: Readonly<DrandChain>): DrandChainInfo {
  if (!/^[0-9a-f]{64}$/i.test(chain.chainHash))
    throw new TypeError('drand: chainHash must be 64 hex characters');
  if (!Number.isSafeInteger(chain.genesis) || !(Number.isInteger(chain.period) && chain.period > 0)) {
    throw new RangeError('drand: genesis and period must be integers of seconds, period > 0');
  }
  return {
    public_key: chain.publicKey,
    period: chain.period,
    genesis_time: chain.genesis,
    hash: chain.chainHash,
    schemeID: 'bls-unchained-g1-rfc9380',
  };
}

/** A relay's JSON for one round, as bytes (for the CLI verifier's beacon records). */
export function parseDrandBeacon(body: unknown): DrandBeacon {
  const round = readRound(body);
  return { round: round.round, randomness: fromHex(round.randomness), signature: fromHex(round.signature) };
}

/** What quicknet signs for a round: SHA-256 of the round as an 8-byte big-endian integer. */
export function drandRoundMessage(round: number): Uint8Array {
  return roundMessage(round, sha256);
}

/** The round being produced at `time`: floor((t − genesis) / period) + 1. */
export function drandRoundAt(time: Date, chain: Pick<DrandChain, 'genesis' | 'period'>): number {
  return roundOf(time.getTime(), { genesis_time: chain.genesis, period: chain.period });
}

/** Checks a quicknet-scheme round under `publicKey` (hex, 96 bytes on G2); throws a SourceError. */
export function verifyDrandBeacon(beacon: DrandBeacon, publicKey: string): void {
  const record = {
    round: beacon.round,
    randomness: Buffer.from(beacon.randomness).toString('hex'),
    signature: Buffer.from(beacon.signature).toString('hex'),
  };
  checkRound({ ...QUICKNET, public_key: publicKey }, record);
}
