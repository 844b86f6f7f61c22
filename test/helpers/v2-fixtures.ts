import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PublicGiveaway, PublicGiveawayLookup } from '../../src/giveaways/results/public-giveaway.ts';
import { QUICKNET } from '../../src/proof/drand.ts';
import { drawSeedV2, pickV2, roundTimeMs } from '../../src/proof/draw-v2.ts';
import { entrantLeafHash } from '../../src/proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { inclusionProofFromLeaves, treeSummary } from '../../src/proof/merkle.ts';
import {
  ALGORITHM_V2,
  type CertificateV2,
  type EntrantWinner,
  type InclusionProof,
  SEAL_TYPE,
  type Seal,
  TICKET_TYPE,
  type Ticket,
} from '../../src/proof/v2-types.ts';
import {
  createSigningKey,
  publicJwk,
  type SigningKey,
  sealCertificate,
} from '../../src/signing/certificate-crypto.ts';

export const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/upstreams/drand-quicknet.json', import.meta.url), 'utf8'),
) as { beacons: { round: number; randomness: string; signature: string }[] };
/** A real quicknet round (its BLS signature verifies under the built-in key). */
export const QUICKNET_ROUND = vectors.beacons.find((b) => b.round === 657413)!;

export interface FixtureEntrant {
  telegram_id: number;
  username: string | null;
  salt: string;
  leaf_hash: string;
  joined_at: string;
}

export interface V2Fixture {
  publicId: string;
  entrants: FixtureEntrant[];
  /** Leaf hashes in canonical (ascending) order. */
  sorted: string[];
  seal: Seal;
  certificate: CertificateV2;
  keys: { keys: object[] };
  tickets: Map<string, Ticket>;
  proofOf(leafHash: string): InclusionProof | undefined;
  /** The key that signed it all, to re-make a signed object as the service could. */
  key: SigningKey;
}

/**
 * A giveaway sealed and drawn exactly as CONTRACT §7 says, on quicknet round 657413 (sealed just
 * in time for it), signed with a fresh key: every verifier accepts it.
 */
export function buildV2Fixture(
  options: {
    title?: string;
    count?: number;
    winners?: number;
    reserves?: number;
    username?: (i: number) => string;
  } = {},
): V2Fixture {
  const { title = 'Fixture giveaway', count = 9, winners = 2, reserves = 1 } = options;
  const key = createSigningKey();
  const publicId = 'Fx7HkQ2xN4ab';
  const joinedAt = '2025-01-01T10:00:00.000Z';
  const entrants: FixtureEntrant[] = Array.from({ length: count }, (_, i) => {
    const salt = randomBytes(16).toString('hex');
    const telegram_id = 700_000_000 + i * 7919;
    return {
      telegram_id,
      username: options.username ? options.username(i) : `user${i}`,
      salt,
      leaf_hash: toHex(entrantLeafHash(fromHex(salt), telegram_id, sha256)),
      joined_at: joinedAt,
    };
  });
  const sorted = entrants.map((e) => e.leaf_hash).sort();
  const packed = fromHex(sorted.join(''));
  const root = toHex(treeSummary(packed, count, sha256).root);
  const proofOf = (leaf: string): InclusionProof | undefined => {
    const index = sorted.indexOf(leaf);
    if (index < 0) return undefined;
    const proof = inclusionProofFromLeaves(packed, count, index, sha256).map(toHex);
    return { index, count, root, proof };
  };
  const round = QUICKNET_ROUND.round;
  const seal = sealCertificate(
    {
      type: SEAL_TYPE,
      seal_id: 's_Fixture000000001',
      giveaway: {
        public_id: publicId,
        title,
        winners_count: winners,
        reserve_count: reserves,
        owner: 'o_FixtureOwner0001',
        created_at: '2024-12-31T09:00:00.000Z',
      },
      entrants: { count, root },
      sealed_at: new Date(roundTimeMs(round - 3, QUICKNET) + 500).toISOString(),
      beacon: {
        network: 'drand' as const,
        chain_hash: QUICKNET.hash,
        after_round: round - 3,
        after_randomness: 'ab'.repeat(32),
        round,
        round_at: new Date(roundTimeMs(round, QUICKNET)).toISOString(),
      },
    },
    key,
  ) as Seal;
  const seed = drawSeedV2(seal.hash, fromHex(QUICKNET_ROUND.randomness), sha256);
  const picks = pickV2(seed, count, winners, reserves, sha256);
  const byLeaf = new Map(entrants.map((e) => [e.leaf_hash, e]));
  const entry = (index: number, position: number): EntrantWinner => {
    const e = byLeaf.get(sorted[index])!;
    return {
      position,
      index,
      telegram_id: e.telegram_id,
      username: e.username,
      salt: e.salt,
      leaf_hash: e.leaf_hash,
      proof: proofOf(e.leaf_hash)!.proof,
    };
  };
  const certificate = sealCertificate(
    {
      certificate_id: 'c_Fixture00000001',
      algorithm: ALGORITHM_V2,
      seal,
      beacon: { network: 'drand' as const, chain_hash: QUICKNET.hash, ...QUICKNET_ROUND },
      seed: toHex(seed),
      winners: picks.winners.map((index, i) => entry(index, i + 1)),
      reserves: picks.reserves.map((index, i) => entry(index, picks.winners.length + i + 1)),
      drawn_at: new Date(roundTimeMs(round, QUICKNET) + 1200).toISOString(),
    },
    key,
  ) as CertificateV2;
  const tickets = new Map(
    entrants.map((e) => [
      e.leaf_hash,
      sealCertificate(
        { type: TICKET_TYPE, giveaway: publicId, leaf_hash: e.leaf_hash, joined_at: e.joined_at },
        key,
      ) as Ticket,
    ]),
  );
  return {
    publicId,
    entrants,
    sorted,
    seal,
    certificate,
    keys: { keys: [publicJwk(key)] },
    tickets,
    proofOf,
    key,
  };
}

/** The public view of the fixture in one of its states, as the giveaway service would give it. */
export function publicViewOf(
  f: V2Fixture,
  status: PublicGiveaway['status'],
  overrides: Partial<PublicGiveaway> = {},
): PublicGiveaway {
  const base = 'http://127.0.0.1:8080';
  const drawn = status === 'completed';
  const id = overrides.public_id ?? f.publicId;
  return {
    public_id: id,
    title: f.seal.giveaway.title,
    description: null,
    status,
    draw_mode: 'verifiable',
    algorithm: 'tyche-draw-v2',
    entrants_count: f.entrants.length,
    winners_count: f.seal.giveaway.winners_count,
    reserve_count: f.seal.giveaway.reserve_count,
    created_at: f.seal.giveaway.created_at,
    ends_at: '2025-01-02T12:00:00.000Z',
    seal: status === 'active' ? null : f.seal,
    log_index: null,
    seal_timestamps: [],
    certificate_id: drawn ? f.certificate.certificate_id : null,
    certificate_log_index: null,
    verify_url: drawn ? `${base}/verify/${f.certificate.certificate_id}` : null,
    receipt_url: `${base}/g/${id}/receipt`,
    drand: { chain_hash: QUICKNET.hash, relay: 'https://relay.example.test' },
    conditions: [],
    excluded: [],
    owner: f.seal.giveaway.owner,
    terms: null,
    terms_sha256: null,
    ...overrides,
  };
}

/** A lookup over fixed views: what the routes receive from the giveaway service. */
export function fakeLookup(views: PublicGiveaway[], f: V2Fixture): PublicGiveawayLookup {
  const find = (id: string) => views.find((v) => v.public_id === id);
  return {
    async view(id) {
      return find(id);
    },
    async proof(id, leaf) {
      const view = find(id);
      if (!view || !f.tickets.has(leaf)) return undefined;
      if (!view.seal) return 'not_sealed';
      const place = f.proofOf(leaf);
      return place && { ...place, seal_id: view.seal.seal_id, seal_hash: view.seal.hash };
    },
    async ticket(id, leaf) {
      return find(id) ? f.tickets.get(leaf) : undefined;
    },
    organizers: {
      version: async () => ({ count: 0, last: -1 }),
      record: async () => undefined,
    },
  };
}
