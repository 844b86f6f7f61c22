// tyche-draw-v2 (CONTRACT §7.3–7.5): the committed drand round, the seed from the sealed hash and
// the round's randomness, and the winners and reserves drawn from it. Pure, like all of src/proof.

import type { Sha256 } from './digest.ts';
import { digestOf } from './digest.ts';
import { pickIndices } from './draw-stream.ts';
import { fromHex } from './hex.ts';
import { ALGORITHM_V2, type DrandChainInfo, type Seal } from './v2-types.ts';

export { ALGORITHM_V2 } from './v2-types.ts';

/** CONTRACT §7.3: the smallest delay a verifier accepts (the service's default is 10 rounds). */
export const MIN_DELAY_ROUNDS = 2;
const DOMAIN = new TextEncoder().encode(ALGORITHM_V2);
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HEX32 = /^[0-9a-f]{64}$/;

type ChainClock = Pick<DrandChainInfo, 'genesis_time' | 'period'>;

/** SHA-256("tyche-draw-v2" ‖ 0x00 ‖ raw seal hash (32) ‖ B (32)). */
export function drawSeedV2(sealHashHex: string, beaconRandomness: Uint8Array, sha256: Sha256): Uint8Array {
  if (!HEX32.test(sealHashHex)) throw new RangeError('the seal hash must be 64 lower-case hex');
  if (beaconRandomness.length !== 32) throw new RangeError('the beacon randomness must be 32 bytes');
  return digestOf(sha256, DOMAIN, Uint8Array.of(0), fromHex(sealHashHex), beaconRandomness);
}

/** §7.5: k = min(winners + reserves, n) indices from the seed; the first min(winners, n) win. */
export function pickV2(
  seed: Uint8Array,
  n: number,
  winnersCount: number,
  reserveCount: number,
  sha256: Sha256,
): { winners: number[]; reserves: number[] } {
  if (!Number.isSafeInteger(winnersCount) || winnersCount < 1)
    throw new RangeError('winners_count must be a positive integer');
  if (!Number.isSafeInteger(reserveCount) || reserveCount < 0)
    throw new RangeError('reserve_count must be a non-negative integer');
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError('n must be a non-negative integer');
  if (seed.length !== 32) throw new RangeError('seed must be 32 bytes');
  const picks = pickIndices(seed, n, Math.min(winnersCount + reserveCount, n), sha256);
  const w = Math.min(winnersCount, n);
  return { winners: picks.slice(0, w), reserves: picks.slice(w) };
}

/** The round being produced at `timeMs`: floor((t − genesis) / period) + 1, in exact milliseconds. */
export function roundOf(timeMs: number, chain: ChainClock): number {
  return Math.floor((timeMs - chain.genesis_time * 1000) / (chain.period * 1000)) + 1;
}

/** When `round` is published: (genesis + (round − 1) × period) seconds, in milliseconds. */
export function roundTimeMs(round: number, chain: ChainClock): number {
  return (chain.genesis_time + (round - 1) * chain.period) * 1000;
}

/** §7.3: max(after_round + D, round_of(sealed_at) + D). */
export function committedRound(input: {
  afterRound: number;
  sealedAtMs: number;
  delayRounds: number;
  chain: ChainClock;
}): number {
  const { afterRound, sealedAtMs, delayRounds, chain } = input;
  return Math.max(afterRound + delayRounds, roundOf(sealedAtMs, chain) + delayRounds);
}

/** An RFC 3339 UTC time with milliseconds, as JavaScript writes it; NaN otherwise. */
export function parseIsoMs(text: unknown): number {
  if (typeof text !== 'string' || !ISO_MS.test(text)) return Number.NaN;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && new Date(ms).toISOString() === text ? ms : Number.NaN;
}

/**
 * The §7.3 round rules for a seal on `chain`: null when they hold, else the first that fails.
 * They make the round one that did not exist when the seal was made (the service cannot have
 * known its randomness) while leaving time to publish the seal before it.
 */
export function sealRoundProblem(
  seal: Seal,
  chain: DrandChainInfo,
  minDelay = MIN_DELAY_ROUNDS,
): string | null {
  const beacon = (seal as { beacon?: unknown }).beacon as Partial<Seal['beacon']> | undefined;
  if (typeof beacon !== 'object' || beacon === null) return 'the seal names no beacon';
  if (beacon.network !== 'drand') return `beacon.network is ${JSON.stringify(beacon.network)}, not "drand"`;
  if (beacon.chain_hash !== chain.hash) {
    return `beacon.chain_hash ${JSON.stringify(beacon.chain_hash)} is not the chain ${chain.hash}`;
  }
  const { round, after_round: after } = beacon;
  if (!Number.isSafeInteger(round) || (round as number) < 1) return 'beacon.round is not a positive integer';
  if (!Number.isSafeInteger(after) || (after as number) < 1)
    return 'beacon.after_round is not a positive integer';
  const sealedAtMs = parseIsoMs(seal.sealed_at);
  if (Number.isNaN(sealedAtMs)) return 'sealed_at is not an RFC 3339 UTC time with milliseconds';
  const r = round as number;
  if (r < (after as number) + minDelay) {
    return `round ${r} is less than ${minDelay} rounds after after_round ${after}`;
  }
  const atSeal = roundOf(sealedAtMs, chain);
  if (r < atSeal + minDelay) {
    return `round ${r} is less than ${minDelay} rounds after round ${atSeal}, the round being produced at sealed_at ${seal.sealed_at}`;
  }
  const expectedAt = new Date(roundTimeMs(r, chain)).toISOString();
  if (beacon.round_at !== expectedAt) {
    return `round_at ${JSON.stringify(beacon.round_at)} is not ${expectedAt}, the time of round ${r}`;
  }
  return null;
}
