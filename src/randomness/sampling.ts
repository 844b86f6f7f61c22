import { partialFisherYates, shuffleWith, type Uniform, uniformFromWords } from '../proof/sampling.ts';
import type { ByteStream } from './chacha-stream.ts';

// The sampling core is the proof core's, so the random endpoints and the draws share one copy.
export { shuffleWith, type Uniform, uniformFromWords } from '../proof/sampling.ts';

const TWO_POW_32 = 2 ** 32;
const MAX_RANGE = 2 ** 53;

function readUint32(stream: ByteStream): number {
  const b = stream.read(4);
  return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
}

/** 53 uniform bits from 8 stream bytes: the low 21 bits of the first word, then the second word. */
function readUint53(stream: ByteStream): number {
  const b = stream.read(8);
  const hi = ((b[1] & 0x1f) << 16) | (b[2] << 8) | b[3];
  const lo = ((b[4] << 24) | (b[5] << 16) | (b[6] << 8) | b[7]) >>> 0;
  return hi * TWO_POW_32 + lo;
}

/**
 * A Uniform over a byte stream. Ranges up to 2^32 use 4-byte words (rejection rate < 1/2, and
 * below 1/4 for the contract's widest int range); larger ranges, up to 2^53, use 53-bit words.
 */
export function uniformFrom(stream: ByteStream): Uniform {
  // A word straight from the keystream when the stream can give one: no view per value.
  const next32 = stream.uint32 ? stream.uint32.bind(stream) : (): number => readUint32(stream);
  const next53 = (): number => readUint53(stream);
  return (m) => (m <= TWO_POW_32 ? uniformFromWords(m, next32, 32) : uniformFromWords(m, next53, 53));
}

export function uniformInt(stream: ByteStream, m: number): number {
  if (!Number.isInteger(m) || m < 1 || m > MAX_RANGE) throw new RangeError('m must be an integer in 1..2^53');
  return uniformFrom(stream)(m);
}

/** Uniform integer in [min, max], both inclusive. */
export function intInRange(stream: ByteStream, min: number, max: number): number {
  return intInRangeWith(uniformFrom(stream), min, max);
}

export function intInRangeWith(uniform: Uniform, min: number, max: number): number {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max))
    throw new RangeError('bounds must be safe integers');
  if (min > max) throw new RangeError('min must not exceed max');
  // A true width above 2^53 − 1 rounds to ≥ 2^53, which is not a safe integer, so this check is exact.
  const width = max - min;
  if (!Number.isSafeInteger(width)) throw new RangeError('max − min must be below 2^53');
  return min + uniform(width + 1);
}

export function shuffle<T>(stream: ByteStream, items: readonly T[]): T[] {
  return shuffleWith(uniformFrom(stream), items);
}

/**
 * Positions of `count` picks from `n` items. Unique picks run a partial Fisher–Yates over the
 * positions, so they are distinct and every ordered selection is equally likely; otherwise each
 * pick is independent.
 */
export function choosePositionsWith(uniform: Uniform, n: number, count: number, unique: boolean): number[] {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError('there must be at least one item');
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
  if (!unique) {
    const picks = new Array<number>(count);
    for (let i = 0; i < count; i++) picks[i] = uniform(n);
    return picks;
  }
  if (count > n) throw new RangeError('count exceeds the number of items for a unique choice');
  return partialFisherYates(uniform, n, count);
}

export function chooseWith<T>(uniform: Uniform, items: readonly T[], count: number, unique: boolean): T[] {
  return choosePositionsWith(uniform, items.length, count, unique).map((p) => items[p]);
}

export function choose<T>(stream: ByteStream, items: readonly T[], count: number, unique: boolean): T[] {
  return chooseWith(uniformFrom(stream), items, count, unique);
}
