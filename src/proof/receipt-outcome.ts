// An entrant's outcome (CONTRACT §7.8): where its index falls among those the draw gives for the
// seal and the committed round's randomness. Taken from the certificate once it is published, or,
// while the server withholds it, from the drand round itself — so a result held back after the
// round, or changed, cannot hide from the entrant. Pure, like all of src/proof.

import { phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import { beaconProblem, type DrandBeaconRecord } from './drand.ts';
import { drawSeedV2, pickV2 } from './draw-v2.ts';
import { entrantLeafHash } from './entrant-leaf.ts';
import { fromHex, toHex } from './hex.ts';
import type { Check } from './report.ts';
import type { CertificateV2, DrandChainInfo, Seal } from './v2-types.ts';
import { checkOf } from './verify-seal.ts';

export interface Outcome {
  won: boolean;
  /** 1-based, among winners then reserves, as the certificate numbers them. */
  position?: number;
  reserve?: boolean;
}

interface Drawn {
  outcome: Outcome;
  /** How many the draw gives in all (winners and reserves). */
  drawn: number;
}

/** Where `index` falls in the draw of `seal` with this round randomness (64 hex). */
function drawnPlace(index: number, seal: Seal, randomness: string, sha256: Sha256): Drawn {
  const seed = drawSeedV2(seal.hash, fromHex(randomness.toLowerCase()), sha256);
  const { count } = seal.entrants;
  const { winners_count: w, reserve_count: r } = seal.giveaway;
  const { winners, reserves } = pickV2(seed, count, w, r, sha256);
  const drawn = winners.length + reserves.length;
  const asWinner = winners.indexOf(index);
  const asReserve = reserves.indexOf(index);
  if (asWinner >= 0)
    return {
      drawn,
      outcome: { won: true, position: asWinner + 1, reserve: false },
    };
  if (asReserve >= 0) {
    const position = winners.length + asReserve + 1;
    return {
      drawn,
      outcome: { won: false, position, reserve: true },
    };
  }
  return { drawn, outcome: { won: false } };
}

/** The outcome's code: winner or reserve, as it reads beside `…-winner` and `…-reserve`. */
const placeOf = (outcome: Outcome) => (outcome.reserve ? 'reserve' : 'winner');

/** The outcome re-drawn from the certificate's round, and whether the certificate lists the entrant so. */
export function certificateOutcome(
  r: { index: number; salt: string; telegram_id: number },
  seal: Seal,
  cert: CertificateV2,
  sha256: Sha256,
): { check: Check; outcome: Outcome } {
  const { outcome, drawn } = drawnPlace(r.index, seal, cert.beacon.randomness, sha256);
  if (outcome.position === undefined)
    return {
      outcome,
      check: checkOf('outcome', null, phrase('outcome-not-drawn', { index: r.index, drawn })),
    };
  const listed = [...cert.winners, ...cert.reserves][outcome.position - 1];
  const leaf = toHex(entrantLeafHash(fromHex(r.salt), r.telegram_id, sha256));
  const at = { position: outcome.position };
  const problem = listed?.leaf_hash === leaf ? null : phrase(`outcome-${placeOf(outcome)}-unlisted`, at);
  return { outcome, check: checkOf('outcome', problem, phrase(`outcome-${placeOf(outcome)}`, at)) };
}

/**
 * Without a certificate: the committed round as a relay served it, checked under the chain's key,
 * and the outcome drawn from it and the seal alone.
 */
export function roundOutcome(
  index: number,
  seal: Seal,
  round: DrandBeaconRecord,
  chain: DrandChainInfo,
  sha256: Sha256,
): { checks: Check[]; outcome?: Outcome } {
  const committed = seal.beacon.round;
  const problem =
    round.round !== committed
      ? `the relay served round ${String(round.round)}, the seal commits to round ${committed}`
      : beaconProblem(chain, round, sha256);
  const record = checkOf(
    'beacon-record',
    problem && phrase('relay-round-bad', { problem }),
    phrase('relay-round-ok', { round: committed }),
  );
  if (problem !== null) return { checks: [record] };
  const { outcome, drawn } = drawnPlace(index, seal, round.randomness, sha256);
  const detail =
    outcome.position === undefined
      ? phrase('outcome-round-not-drawn', { index, drawn, round: committed })
      : phrase(`outcome-round-${placeOf(outcome)}`, { position: outcome.position, round: committed });
  return { checks: [record, checkOf('outcome', null, detail)], outcome };
}
