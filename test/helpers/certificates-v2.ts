import { readFileSync } from 'node:fs';
import { sha256 } from '../../src/giveaways/draw/certificate.ts';
import { drawSeedV2, pickV2 } from '../../src/proof/draw-v2.ts';
import { entrantLeafHash } from '../../src/proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { inclusionProofFromLeaves, treeSummary } from '../../src/proof/merkle.ts';
import type { CertificateV2, CertificateV2Body, EntrantWinner, SealBody } from '../../src/proof/v2-types.ts';
import {
  type SigningKey,
  sealCertificate,
  signingKeyFromSecret,
} from '../../src/signing/certificate-crypto.ts';

/** The reference draw on real quicknet round 657413, computed by docs/draw-v2-vectors.py. */
export const QUICKNET_EXAMPLE = JSON.parse(
  readFileSync(new URL('../fixtures/draw-v2-vectors.json', import.meta.url), 'utf8'),
).quicknet_example;

export interface Entrant {
  telegram_id: number;
  username: string | null;
  salt: string;
}

/** The key the reference example is signed with (RFC 8032 §7.1 TEST 1, public). */
export const EXAMPLE_KEY = signingKeyFromSecret(fromHex(QUICKNET_EXAMPLE.signing_secret));

/**
 * A tyche-draw-v2 certificate drawn as the service draws: leaves, tree, seal, the real quicknet
 * round 657413, seed, winners and reserves with their proofs, each part sealed with `key`.
 */
export function sampleCertificateV2(
  options: {
    title?: string;
    entrants?: Entrant[];
    winnersCount?: number;
    reserveCount?: number;
    key?: SigningKey;
    certificateId?: string;
  } = {},
): CertificateV2 {
  const example = QUICKNET_EXAMPLE;
  const entrants: Entrant[] = options.entrants ?? example.entrants;
  const key = options.key ?? EXAMPLE_KEY;
  const leaves = entrants
    .map((e) => ({ entrant: e, leaf: entrantLeafHash(fromHex(e.salt), e.telegram_id, sha256) }))
    .sort((a, b) => Buffer.compare(a.leaf, b.leaf));
  const packed = new Uint8Array(leaves.length * 32);
  for (const [i, { leaf }] of leaves.entries()) packed.set(leaf, i * 32);
  const { root } = treeSummary(packed, leaves.length, sha256);
  const { hash: _hash, signature: _signature, ...exampleSeal } = example.seal as CertificateV2['seal'];
  const sealBody: SealBody = {
    ...exampleSeal,
    giveaway: {
      ...example.seal.giveaway,
      title: options.title ?? example.seal.giveaway.title,
      winners_count: options.winnersCount ?? example.seal.giveaway.winners_count,
      reserve_count: options.reserveCount ?? example.seal.giveaway.reserve_count,
    },
    entrants: { count: leaves.length, root: toHex(root) },
  };
  const seal = sealCertificate(sealBody, key);
  const randomness = fromHex(example.beacon.randomness);
  const seed = drawSeedV2(seal.hash, randomness, sha256);
  const { giveaway } = seal;
  const picks = pickV2(seed, leaves.length, giveaway.winners_count, giveaway.reserve_count, sha256);
  const winner = (index: number, i: number): EntrantWinner => {
    const { entrant, leaf } = leaves[index];
    return {
      position: i + 1,
      index,
      telegram_id: entrant.telegram_id,
      username: entrant.username,
      salt: entrant.salt,
      leaf_hash: toHex(leaf),
      proof: inclusionProofFromLeaves(packed, leaves.length, index, sha256).map(toHex),
    };
  };
  const body: CertificateV2Body = {
    certificate_id: options.certificateId ?? example.certificate.certificate_id,
    algorithm: 'tyche-draw-v2',
    seal,
    beacon: { network: 'drand', chain_hash: seal.beacon.chain_hash, ...example.beacon },
    seed: toHex(seed),
    winners: picks.winners.map((index, i) => winner(index, i)),
    reserves: picks.reserves.map((index, i) => winner(index, picks.winners.length + i)),
    drawn_at: example.certificate.drawn_at,
  };
  return sealCertificate(body, key);
}

/** `count` entrants with fresh salts and the given usernames. */
export function manyEntrants(count: number, username: (i: number) => string | null): Entrant[] {
  return Array.from({ length: count }, (_, i) => ({
    telegram_id: 10_000 + i * 7,
    username: username(i),
    salt: toHex(crypto.getRandomValues(new Uint8Array(16))),
  }));
}
