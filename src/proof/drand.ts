// drand rounds of scheme bls-unchained-g1-rfc9380 (CONTRACT §7.4): the built-in quicknet chain, a
// strict reader for a chain's /info, and the check of one round. Pure: the server, the CLI and the
// browser verify rounds with this same code.

import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { digestOf, type Sha256 } from './digest.ts';
import { bytesEqual, fromHex, toHex } from './hex.ts';
import type { DrandChainInfo } from './v2-types.ts';

export const DRAND_SCHEME = 'bls-unchained-g1-rfc9380';
export const DRAND_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

/** League of Entropy quicknet, as its /info serves it. */
export const QUICKNET: Readonly<DrandChainInfo> = Object.freeze({
  public_key:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesis_time: 1692803367,
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  schemeID: DRAND_SCHEME,
});

export interface DrandBeaconRecord {
  round: number;
  randomness: string;
  signature: string;
}

/** The three members of a relay's answer a check reads; their types are checked with the signature. */
export function beaconRecordOf(json: Record<string, unknown>): DrandBeaconRecord {
  return {
    round: json.round as number,
    randomness: json.randomness as string,
    signature: json.signature as string,
  };
}

const HEX = /^[0-9a-fA-F]*$/;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function hexField(
  info: Record<string, unknown>,
  names: readonly string[],
  bytes: number,
): string | undefined {
  const name = names.find((n) => info[n] !== undefined);
  if (name === undefined) return undefined;
  const value = info[name];
  if (typeof value !== 'string' || !HEX.test(value) || value.length !== 2 * bytes) {
    throw new Error(`drand chain info: ${name} must be ${2 * bytes} hex characters`);
  }
  return value.toLowerCase();
}

/**
 * drand's chain hash (Info.Hash): SHA-256(uint32_be(period) ‖ int64_be(genesis_time) ‖ public key
 * ‖ group hash ‖ beacon id unless it is the default one).
 */
export function drandChainHash(
  chain: Pick<DrandChainInfo, 'period' | 'genesis_time' | 'public_key'>,
  groupHash: string,
  beaconId: string,
  sha256: Sha256,
): string {
  const head = new Uint8Array(12);
  const view = new DataView(head.buffer);
  view.setUint32(0, chain.period);
  view.setBigInt64(4, BigInt(chain.genesis_time));
  const id =
    beaconId === '' || beaconId === 'default' ? new Uint8Array(0) : new TextEncoder().encode(beaconId);
  return toHex(digestOf(sha256, head, fromHex(chain.public_key), fromHex(groupHash), id));
}

/**
 * A chain's /info JSON (drand's v1 names, or the v2 ones: chain_hash, scheme, genesis_seed,
 * beacon_id). Throws an Error naming the bad field. When the group hash is given, the chain hash
 * is recomputed from it, so a key that does not belong to the named chain is refused.
 */
export function parseChainInfo(json: unknown): DrandChainInfo {
  if (!isRecord(json)) throw new Error('drand chain info must be a JSON object');
  const scheme = json.schemeID ?? json.scheme;
  if (scheme !== DRAND_SCHEME) {
    throw new Error(`drand chain info: schemeID must be "${DRAND_SCHEME}", not ${JSON.stringify(scheme)}`);
  }
  const publicKey = hexField(json, ['public_key'], 96);
  if (publicKey === undefined) throw new Error('drand chain info: public_key is missing');
  const hash = hexField(json, ['hash', 'chain_hash'], 32);
  if (hash === undefined) throw new Error('drand chain info: hash is missing');
  const { period, genesis_time: genesis } = json;
  if (!Number.isSafeInteger(period) || (period as number) < 1 || (period as number) > 0xffffffff) {
    throw new Error('drand chain info: period must be a positive integer of seconds');
  }
  if (!Number.isSafeInteger(genesis) || (genesis as number) < 1) {
    throw new Error('drand chain info: genesis_time must be a positive integer of seconds');
  }
  try {
    g2Key(publicKey);
  } catch {
    throw new Error('drand chain info: public_key is not a point of G2');
  }
  const chain: DrandChainInfo = {
    public_key: publicKey,
    period: period as number,
    genesis_time: genesis as number,
    hash,
    schemeID: DRAND_SCHEME,
  };
  const groupHash = hexField(json, ['groupHash', 'genesis_seed'], 32);
  if (groupHash !== undefined) {
    const metadata = isRecord(json.metadata) ? json.metadata : {};
    const id = metadata.beaconID ?? json.beacon_id ?? '';
    if (typeof id !== 'string') throw new Error('drand chain info: beaconID must be a string');
    const computed = drandChainHash(chain, groupHash, id, nobleSha256);
    if (computed !== hash)
      throw new Error(`drand chain info: hash is ${hash}, but the fields hash to ${computed}`);
  }
  return chain;
}

type G2Point = ReturnType<typeof bls12_381.G2.Point.fromHex>;
const keys = new Map<string, G2Point>();

/** Parsing a G2 point costs about a millisecond: each chain key is parsed once. */
function g2Key(publicKey: string): G2Point {
  let key = keys.get(publicKey);
  if (!key) {
    key = bls12_381.G2.Point.fromHex(publicKey);
    key.assertValidity();
    keys.set(publicKey, key);
  }
  return key;
}

/** What the chain signs for a round: SHA-256(uint64_be(round)). */
export function drandRoundMessage(round: number, sha256: Sha256): Uint8Array {
  const data = new Uint8Array(8);
  new DataView(data.buffer).setBigUint64(0, BigInt(round));
  return digestOf(sha256, data);
}

/**
 * Why `beacon` is not round `beacon.round` of `chain`, or null when it is: randomness must be
 * SHA-256(signature) and the signature a BLS signature on G1 over SHA-256(uint64_be(round)) under
 * the chain's key.
 */
export function beaconProblem(
  chain: DrandChainInfo,
  beacon: DrandBeaconRecord,
  sha256: Sha256,
): string | null {
  const { round, randomness, signature } = beacon;
  if (!Number.isSafeInteger(round) || round < 1) return 'round is not a positive integer';
  if (typeof randomness !== 'string' || randomness.length !== 64 || !HEX.test(randomness)) {
    return 'randomness is not 32 bytes of hex';
  }
  if (typeof signature !== 'string' || signature.length !== 96 || !HEX.test(signature)) {
    return 'signature is not 48 bytes of hex';
  }
  const sig = fromHex(signature);
  if (!bytesEqual(digestOf(sha256, sig), fromHex(randomness))) return 'randomness is not SHA-256(signature)';
  let key: G2Point;
  try {
    key = g2Key(chain.public_key);
  } catch {
    return 'the chain public key is not a point of G2';
  }
  const sigs = bls12_381.shortSignatures;
  let valid: boolean;
  try {
    valid = sigs.verify(sig, sigs.hash(drandRoundMessage(round, sha256), DRAND_DST), key);
  } catch {
    // noble throws, rather than returning false, on bytes that are not a point of the curve.
    return 'malformed BLS signature (not a point of G1)';
  }
  return valid ? null : `BLS signature does not verify under the key of chain ${chain.hash}`;
}
