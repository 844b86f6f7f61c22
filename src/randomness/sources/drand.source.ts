import { createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { type Clock, type RandomSource, type SourceBatch, SourceError, systemClock } from '../source.ts';
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
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesis: 1692803367,
  period: 3,
};
/** CONTRACT §4: a round serves operations for at most five periods after its time. */
export const DRAND_FRESH_PERIODS = 5;
export const DRAND_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

/**
 * Give all four chain fields or none (quicknet): a mix would check one chain's rounds with another's
 * key or clock.
 */
export interface DrandSourceOptions extends Partial<DrandChain> {
  url?: string;
  timeoutMs: number;
  clock?: Clock;
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
  const publicKey = bls12_381.G2.Point.fromHex(chain.publicKey);
  const url = `${(options.url ?? DRAND_URL).replace(/\/+$/, '')}/${chain.chainHash}/public/latest`;
  const periodMs = chain.period * 1000;
  let lastRound = 0;

  return {
    name: 'drand',
    kind: 'beacon',
    async fetch(signal?: AbortSignal): Promise<SourceBatch> {
      const body = await fetchJson({ source: 'drand', url, timeoutMs, fetch: options.fetch, signal });
      const beacon = parseDrandBeacon(body);
      verifyDrandBeacon(beacon, publicKey);
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
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(round));
  return new Uint8Array(createHash('sha256').update(b).digest());
}

/** The round being produced at `time`: floor((t − genesis) / period) + 1. */
export function drandRoundAt(time: Date, chain: Pick<DrandChain, 'genesis' | 'period'>): number {
  return Math.floor((time.getTime() - chain.genesis * 1000) / (chain.period * 1000)) + 1;
}

function roundTimeMs(round: number, chain: Pick<DrandChain, 'genesis' | 'period'>): number {
  return (chain.genesis + (round - 1) * chain.period) * 1000;
}

type G2Point = ReturnType<typeof bls12_381.G2.Point.fromHex>;

export function verifyDrandBeacon(beacon: DrandBeacon, publicKey: G2Point | string): void {
  const digest = createHash('sha256').update(beacon.signature).digest();
  if (!digest.equals(beacon.randomness)) {
    throw new SourceError('drand', `round ${beacon.round}: randomness is not SHA-256(signature)`);
  }
  const sigs = bls12_381.shortSignatures;
  let valid: boolean;
  try {
    const key = typeof publicKey === 'string' ? bls12_381.G2.Point.fromHex(publicKey) : publicKey;
    valid = sigs.verify(beacon.signature, sigs.hash(drandRoundMessage(beacon.round), DRAND_DST), key);
  } catch (err) {
    // noble throws, rather than returning false, on bytes that are not a point of the curve.
    throw new SourceError('drand', `round ${beacon.round}: malformed BLS signature`, { cause: err });
  }
  if (!valid) throw new SourceError('drand', `round ${beacon.round}: BLS signature does not verify`);
}
