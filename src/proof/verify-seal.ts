// The checks of a tyche-seal-v2 (CONTRACT §7.3), shared by the certificate, seal and receipt
// verifiers: its form, hash, signature, the drand chain it commits to, and the round rules.

import { phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import { QUICKNET } from './drand.ts';
import { sealRoundProblem } from './draw-v2.ts';
import { type Check, type Detail, HEX32, isCount, isRecord, makeCheck } from './report.ts';
import { objectHashProblem, objectSignatureProblem } from './signed-object.ts';
import { termsFormatProblem } from './terms.ts';
import { type DrandChainInfo, SEAL_TYPE, type Seal } from './v2-types.ts';

export const V2_LABELS = {
  format: 'Format',
  'seal-hash': 'Seal hash',
  'seal-signature': 'Seal signature',
  'beacon-chain': 'drand chain',
  'seal-rounds': 'Committed round',
  'beacon-signature': 'drand round signature',
  'beacon-round': 'Round drawn = round committed',
  'beacon-record': 'drand relay record',
  seed: 'Seed',
  winners: 'Winners',
  reserves: 'Reserves',
  leaves: 'Leaf hashes',
  proofs: 'Inclusion proofs',
  entrants: 'Entrant list',
  hash: 'Certificate hash',
  signature: 'Certificate signature',
  'receipt-leaf': 'Receipt leaf hash',
  'receipt-seal': 'Receipt and seal',
  'receipt-proof': 'Receipt inclusion proof',
  certificate: 'Certificate',
  'certificate-seal': 'Certificate and seal',
  outcome: 'Outcome',
} as const;
export type V2CheckId = keyof typeof V2_LABELS;

export const checkOf = (id: V2CheckId, problem: Detail | null, okDetail: Detail): Check =>
  makeCheck(id, V2_LABELS[id], problem, okDetail);

const isString = (v: unknown): v is string => typeof v === 'string';
const isHex32 = (v: unknown): v is string => isString(v) && HEX32.test(v);

/** Why `seal` is not shaped as a tyche-seal-v2 (fields named under `at`), or null. */
export function sealFormatProblem(seal: unknown, at = ''): string | null {
  if (!isRecord(seal)) return `${at || 'the seal'} is not a JSON object`;
  if (seal.type !== SEAL_TYPE) return `${at}type is ${JSON.stringify(seal.type)}, not "${SEAL_TYPE}"`;
  if (!isString(seal.seal_id)) return `${at}seal_id is not a string`;
  const g = seal.giveaway;
  if (!isRecord(g)) return `${at}giveaway is not an object`;
  for (const field of ['public_id', 'title', 'owner', 'created_at'] as const) {
    if (!isString(g[field])) return `${at}giveaway.${field} is not a string`;
  }
  if (!isCount(g.winners_count)) return `${at}giveaway.winners_count is not a positive integer`;
  if (!Number.isSafeInteger(g.reserve_count) || (g.reserve_count as number) < 0) {
    return `${at}giveaway.reserve_count is not a non-negative integer`;
  }
  const terms = termsFormatProblem(g, at);
  if (terms !== null) return terms;
  const e = seal.entrants;
  if (!isRecord(e) || !isCount(e.count)) return `${at}entrants.count is not a positive integer`;
  if (!isHex32(e.root)) return `${at}entrants.root is not 64 lower-case hex`;
  if (!isString(seal.sealed_at)) return `${at}sealed_at is not a string`;
  const b = seal.beacon;
  if (!isRecord(b) || b.network !== 'drand') return `${at}beacon.network is not "drand"`;
  if (!isHex32(b.chain_hash)) return `${at}beacon.chain_hash is not 64 lower-case hex`;
  if (!isCount(b.after_round)) return `${at}beacon.after_round is not a positive integer`;
  if (!isHex32(b.after_randomness)) return `${at}beacon.after_randomness is not 64 lower-case hex`;
  if (!isCount(b.round)) return `${at}beacon.round is not a positive integer`;
  if (!isString(b.round_at)) return `${at}beacon.round_at is not a string`;
  if (!isHex32(seal.hash)) return `${at}hash is not 64 lower-case hex`;
  if (!isRecord(seal.signature)) return `${at}signature is missing`;
  return null;
}

/** Quicknet is always known; other chains only when the verifier is given their /info. */
export function findChain(hash: unknown, chains: readonly DrandChainInfo[] = []): DrandChainInfo | undefined {
  return [QUICKNET, ...chains].find((c) => c.hash === hash);
}

/** The seal's own hash and its signature by a published key: the lines every seal-bearing report opens with. */
export function sealOwnChecks(seal: Record<string, unknown>, sha256: Sha256, keys: unknown): Check[] {
  const kid = isRecord(seal.signature) ? String(seal.signature.kid) : '';
  return [
    checkOf('seal-hash', objectHashProblem(seal, sha256), phrase('seal-hash-ok')),
    checkOf('seal-signature', objectSignatureProblem(seal, keys), phrase('signature-ok', { kid })),
  ];
}

/**
 * Chain and round rules of a well-formed seal. Returns the chain when it is known; the round
 * rules need it, so they are not listed for an unknown chain (that check already failed).
 */
export function sealBeaconChecks(
  seal: Seal,
  chains: readonly DrandChainInfo[] | undefined,
): { checks: Check[]; chain?: DrandChainInfo } {
  const chain = findChain(seal.beacon.chain_hash, chains);
  if (!chain) {
    const problem = phrase('beacon-chain-unknown', { chain: seal.beacon.chain_hash });
    return { checks: [checkOf('beacon-chain', problem, '')] };
  }
  return {
    chain,
    checks: [
      checkOf(
        'beacon-chain',
        null,
        chain.hash === QUICKNET.hash
          ? phrase('beacon-chain-quicknet')
          : phrase('beacon-chain-given', { chain: chain.hash }),
      ),
      checkOf(
        'seal-rounds',
        sealRoundProblem(seal, chain),
        phrase('seal-rounds-ok', {
          round: seal.beacon.round,
          due: seal.beacon.round_at,
          after: seal.beacon.after_round,
          sealed: seal.sealed_at,
        }),
      ),
    ],
  };
}
