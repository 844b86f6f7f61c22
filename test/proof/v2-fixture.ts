import { createHash, randomBytes, randomInt } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { DRAND_DST, drandRoundMessage } from '../../src/proof/drand.ts';
import { committedRound, drawSeedV2, pickV2, roundOf, roundTimeMs } from '../../src/proof/draw-v2.ts';
import { entrantLeafHash } from '../../src/proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { inclusionProofFromLeaves, treeSummary } from '../../src/proof/merkle.ts';
import {
  ALGORITHM_V2,
  type CertificateV2,
  type CertificateV2Body,
  type DrandChainInfo,
  type EntrantWinner,
  SEAL_TYPE,
  type Seal,
  type SealBody,
} from '../../src/proof/v2-types.ts';
import {
  createSigningKey,
  publicJwk,
  type SigningKey,
  sealCertificate,
} from '../../src/signing/certificate-crypto.ts';

export const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

export interface Entrant {
  telegram_id: number;
  salt: string;
  leaf: string;
  username: string | null;
}

/** A drand chain of its own with real BLS signatures, as a test relay would run it. */
export function fakeChain(genesisTime: number) {
  const sigs = bls12_381.shortSignatures;
  const { secretKey, publicKey } = sigs.keygen();
  const info: DrandChainInfo = {
    public_key: publicKey.toHex(),
    period: 3,
    genesis_time: genesisTime,
    hash: randomBytes(32).toString('hex'),
    schemeID: 'bls-unchained-g1-rfc9380',
  };
  const beacon = (round: number) => {
    const point = sigs.sign(sigs.hash(drandRoundMessage(round, sha256), DRAND_DST), secretKey);
    const signature = toHex(sigs.Signature.toBytes(point));
    return { round, randomness: toHex(sha256(fromHex(signature))), signature };
  };
  return { info, beacon };
}

export interface V2World {
  key: SigningKey;
  keys: { keys: unknown[] };
  chain: ReturnType<typeof fakeChain>;
  entrants: Entrant[];
  seal: Seal;
  certificate: CertificateV2;
  /** Sorted leaf hashes, packed. */
  leaves: Uint8Array;
}

/**
 * A sealed giveaway drawn on a fake chain, signed with a real Ed25519 key: the whole of
 * CONTRACT §7 done by hand, with the proof core's primitives, the way the service does it.
 */
export function buildV2World(options: { n?: number; winners?: number; reserves?: number } = {}): V2World {
  const { n = 40, winners = 3, reserves = 2 } = options;
  const key = createSigningKey();
  const sealedAtMs = Date.UTC(2026, 10, 22, 20, 45, 31, 610);
  const chain = fakeChain(Math.floor(sealedAtMs / 1000) - 3600);
  const entrants: Entrant[] = Array.from({ length: n }, (_, i) => {
    const salt = randomBytes(16);
    const telegram_id = randomInt(1, 2 ** 40);
    const leaf = toHex(entrantLeafHash(salt, telegram_id, sha256));
    return { telegram_id, salt: toHex(salt), leaf, username: i % 3 === 0 ? null : `user${i}` };
  }).sort((a, b) => (a.leaf < b.leaf ? -1 : 1));
  const leaves = fromHex(entrants.map((e) => e.leaf).join(''));
  const { root } = treeSummary(leaves, n, sha256);

  const afterRound = roundOf(sealedAtMs, chain.info) - 1;
  const round = committedRound({ afterRound, sealedAtMs, delayRounds: 10, chain: chain.info });
  const sealBody: SealBody = {
    type: SEAL_TYPE,
    seal_id: `seal_${randomBytes(6).toString('hex')}`,
    giveaway: {
      public_id: 'g_test',
      title: 'Spring giveaway',
      winners_count: winners,
      reserve_count: reserves,
      owner: 'own_5f2a',
      created_at: new Date(sealedAtMs - 86_400_000).toISOString(),
    },
    entrants: { count: n, root: toHex(root) },
    sealed_at: new Date(sealedAtMs).toISOString(),
    beacon: {
      network: 'drand',
      chain_hash: chain.info.hash,
      after_round: afterRound,
      after_randomness: chain.beacon(afterRound).randomness,
      round,
      round_at: new Date(roundTimeMs(round, chain.info)).toISOString(),
    },
  };
  const seal = sealCertificate(sealBody, key) as Seal;

  const beacon = chain.beacon(round);
  const seed = drawSeedV2(seal.hash, fromHex(beacon.randomness), sha256);
  const picks = pickV2(seed, n, winners, reserves, sha256);
  const listed: EntrantWinner[] = [...picks.winners, ...picks.reserves].map((index, i) => {
    const e = entrants[index];
    return {
      position: i + 1,
      index,
      telegram_id: e.telegram_id,
      username: e.username,
      salt: e.salt,
      leaf_hash: e.leaf,
      proof: inclusionProofFromLeaves(leaves, n, index, sha256).map(toHex),
    };
  });
  const body: CertificateV2Body = {
    certificate_id: `cert_${randomBytes(6).toString('hex')}`,
    algorithm: ALGORITHM_V2,
    seal,
    beacon: { network: 'drand', ...beacon, chain_hash: chain.info.hash },
    seed: toHex(seed),
    winners: listed.slice(0, picks.winners.length),
    reserves: listed.slice(picks.winners.length),
    drawn_at: new Date(roundTimeMs(round, chain.info) + 2500).toISOString(),
  };
  const certificate = sealCertificate(body, key) as CertificateV2;
  return { key, keys: { keys: [publicJwk(key)] }, chain, entrants, seal, certificate, leaves };
}

/** A deep copy changed by `edit`, then signed again with `key` (as a dishonest operator could), unless `key` is null. */
export function altered<T extends object>(signed: T, edit: (copy: T) => void, key: SigningKey | null): T {
  const copy = structuredClone(signed);
  edit(copy);
  if (key === null) return copy;
  const { hash: _h, signature: _s, ...body } = copy as Record<string, unknown>;
  return sealCertificate(body, key) as unknown as T;
}
