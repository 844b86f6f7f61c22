// tyche-draw-v1 (CONTRACT.md §5, docs/draw-algorithm.md). Bundled into the pages' scripts and run
// by the CLI verifier, so it imports only other pure proof modules and no Node-only globals:
// SHA-256 is passed in by the caller.

import type { Sha256 } from './digest.ts';
import { pickIndices } from './draw-stream.ts';
import { fromHex, toHex } from './hex.ts';

export type { Sha256 } from './digest.ts';
export { fromHex, toHex } from './hex.ts';
export type TelegramId = number | bigint;

export const ALGORITHM = 'tyche-draw-v1';

const DOMAIN = new TextEncoder().encode(ALGORITHM);

function invalidId(id: TelegramId): RangeError {
  return new RangeError(`telegram_id must be a positive integer (a bigint above 2^53 − 1), got ${id}`);
}

function checkId(id: TelegramId): void {
  if (typeof id === 'number') {
    if (!(id > 0 && id <= Number.MAX_SAFE_INTEGER && Math.floor(id) === id)) throw invalidId(id);
  } else if (!(typeof id === 'bigint' && id > 0n)) {
    throw invalidId(id);
  }
}

function firstNotAscending(ids: ArrayLike<TelegramId>): number {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1] < ids[i])) return i;
  return -1;
}

/**
 * Participants in canonical order: ascending telegram_id (numeric, not textual). Returns a new
 * array and rejects duplicates and ids that are not positive integers.
 */
export function canonicalOrder<T extends TelegramId>(ids: readonly T[]): T[] {
  const n = ids.length;
  let allNumbers = true;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    checkId(id);
    if (typeof id !== 'number') allNumbers = false;
    else if (id > max) max = id;
  }
  if (firstNotAscending(ids) === -1) return ids.slice();
  let sorted: T[];
  if (allNumbers) {
    // A typed-array sort is numeric and several times faster than a comparator sort at 10^6 ids.
    const typed = max <= 0xffffffff ? new Uint32Array(n) : new Float64Array(n);
    for (let i = 0; i < n; i++) typed[i] = ids[i] as number;
    typed.sort();
    sorted = new Array<T>(n);
    for (let i = 0; i < n; i++) sorted[i] = typed[i] as T;
  } else {
    sorted = ids.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  const dup = firstNotAscending(sorted);
  if (dup !== -1) throw new RangeError(`duplicate telegram_id ${sorted[dup]}`);
  return sorted;
}

function decimalLength(v: number): number {
  let len = 1;
  while (v >= 10) {
    v = (v / 10) | 0;
    len++;
  }
  return len;
}

/** Fills out[from, end) with the last digits of `v` (below 2^31), zero-padded on the left. */
function writeDigits(out: Uint8Array, from: number, end: number, v: number): void {
  for (let p = end - 1; p >= from; p--) {
    const q = (v / 10) | 0;
    out[p] = 48 + v - q * 10;
    v = q;
  }
}

/** Writes a safe integer in decimal at `at`; returns the position after it. */
function writeDecimal(out: Uint8Array, at: number, id: number): number {
  // Above 10^8 split the number so each part fits in int32 and the digit loop stays integral.
  if (id >= 1e8) {
    const hi = Math.floor(id / 1e8);
    const low = writeDecimal(out, at, hi);
    writeDigits(out, low, low + 8, id - hi * 1e8);
    return low + 8;
  }
  const end = at + decimalLength(id);
  writeDigits(out, at, end, id);
  return end;
}

/** The hashed text: every id in decimal followed by "\n", as ASCII bytes. */
export function participantsText(sortedIds: readonly TelegramId[]): Uint8Array {
  const n = sortedIds.length;
  let maxLen = 17;
  for (let i = 0; i < n; i++) {
    const id = sortedIds[i];
    if (typeof id === 'bigint') maxLen = Math.max(maxLen, id.toString().length + 1);
  }
  const out = new Uint8Array(n * maxLen);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const id = sortedIds[i];
    if (typeof id === 'number') {
      at = writeDecimal(out, at, id);
    } else {
      const text = id.toString();
      for (let c = 0; c < text.length; c++) out[at++] = text.charCodeAt(c);
    }
    out[at++] = 10;
  }
  return out.subarray(0, at);
}

/** §5 step 2. The ids must already be in canonical order (see canonicalOrder). */
export function participantsHash(sortedIds: readonly TelegramId[], sha256: Sha256): string {
  for (let i = 0; i < sortedIds.length; i++) checkId(sortedIds[i]);
  const bad = firstNotAscending(sortedIds);
  if (bad !== -1) throw new RangeError(`participants are not in canonical order at index ${bad}`);
  return toHex(hash(sha256, participantsText(sortedIds)));
}

function hash(sha256: Sha256, data: Uint8Array): Uint8Array {
  const digest = sha256(data);
  if (digest.length !== 32) throw new TypeError('sha256 must return 32 bytes');
  return digest;
}

/** §5 step 3 for a public beacon: R = SHA-256(beacon value ‖ 32 bytes of fresh system entropy). */
export function beaconR(beaconValue: Uint8Array, systemEntropy: Uint8Array, sha256: Sha256): Uint8Array {
  if (beaconValue.length === 0) throw new RangeError('beacon value must not be empty');
  if (systemEntropy.length !== 32) throw new RangeError('system entropy must be 32 bytes');
  const data = new Uint8Array(beaconValue.length + 32);
  data.set(beaconValue, 0);
  data.set(systemEntropy, beaconValue.length);
  return hash(sha256, data);
}

/** §5 step 4: SHA-256("tyche-draw-v1" ‖ 0x00 ‖ participants_hash (32 raw bytes) ‖ R). */
export function drawSeed(participantsHashHex: string, randomness: Uint8Array, sha256: Sha256): Uint8Array {
  const ph = fromHex(participantsHashHex);
  if (ph.length !== 32) throw new RangeError('participants_hash must be 32 bytes of hex');
  if (randomness.length !== 32) throw new RangeError('R must be 32 bytes');
  const data = new Uint8Array(DOMAIN.length + 1 + 32 + 32);
  data.set(DOMAIN, 0);
  data[DOMAIN.length] = 0;
  data.set(ph, DOMAIN.length + 1);
  data.set(randomness, DOMAIN.length + 33);
  return hash(sha256, data);
}

/**
 * §5 steps 5–7: the canonical indices a[0..k−1] of the winners, in draw order. The array
 * a = [0 … n−1] is kept as a sparse swap map, so memory is O(k) whatever n is.
 */
export function pickWinners(seed: Uint8Array, n: number, k: number, sha256: Sha256): number[] {
  if (seed.length !== 32) throw new RangeError('seed must be 32 bytes');
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError('n must be a positive safe integer');
  if (!Number.isSafeInteger(k) || k < 0 || k > n) throw new RangeError('k must be an integer in 0..n');
  return pickIndices(seed, n, k, sha256);
}

export interface DrawWinner<T extends TelegramId = TelegramId> {
  /** 1-based winner number, i + 1. */
  position: number;
  /** 0-based index in canonical order, a[i]. */
  index: number;
  telegram_id: T;
}

export interface DrawInput<T extends TelegramId> {
  /** Any order; canonicalOrder is applied. */
  participantIds: readonly T[];
  winnersCount: number;
  /** R, 32 bytes (for a beacon, the output of beaconR). */
  randomness: Uint8Array;
  sha256: Sha256;
}

export interface DrawResult<T extends TelegramId> {
  algorithm: typeof ALGORITHM;
  participantsCount: number;
  participantsHash: string;
  /** Hex. */
  seed: string;
  winners: DrawWinner<T>[];
}

export function runDraw<T extends TelegramId>(input: DrawInput<T>): DrawResult<T> {
  const { winnersCount, randomness, sha256 } = input;
  if (!Number.isSafeInteger(winnersCount) || winnersCount < 1) {
    throw new RangeError('winners_count must be a positive integer');
  }
  const ids = canonicalOrder(input.participantIds);
  if (ids.length === 0) throw new RangeError('a draw needs at least one participant');
  const k = Math.min(winnersCount, ids.length);
  const participantsHashHex = participantsHash(ids, sha256);
  const seed = drawSeed(participantsHashHex, randomness, sha256);
  const indices = pickWinners(seed, ids.length, k, sha256);
  return {
    algorithm: ALGORITHM,
    participantsCount: ids.length,
    participantsHash: participantsHashHex,
    seed: toHex(seed),
    winners: indices.map((index, i) => ({ position: i + 1, index, telegram_id: ids[index] })),
  };
}
