// Amendments of a tyche-draw-v2 draw (CONTRACT §14): each public replacement of a winner by the
// next unused reserve, signed like a seal and chained to the one before it. Pure, so the server
// (which builds amended winners with the same rules it is checked by), `tyche verify`,
// tyche-verify.mjs and the pages run one definition of "the next unused reserve".

import type { Sha256 } from './digest.ts';
import { parseIsoMs } from './draw-v2.ts';
import { HEX32, isCount, isRecord } from './report.ts';
import { type Ed25519Verify, objectHashProblem, objectSignatureProblem } from './signed-object.ts';
import type { EntrantWinner, SignedMembers } from './v2-types.ts';

export const AMENDMENT_TYPE = 'tyche-amendment-v2';
export const AMENDMENT_REASONS = [
  'left_channel',
  'unclaimed',
  'ineligible',
  'duplicate_account',
  'other',
] as const;
export type AmendmentReason = (typeof AMENDMENT_REASONS)[number];
/** A note is public and signed: short enough to read in a channel post. */
export const AMENDMENT_NOTE_MAX = 500;

/** An entrant as an amendment names it: its place in the sealed list, nothing that identifies them. */
export interface AmendedEntrant {
  index: number;
  leaf_hash: string;
}

export interface AmendmentBody {
  type: typeof AMENDMENT_TYPE;
  amendment_id: string;
  /** The giveaway's public_id. */
  giveaway: string;
  /** The `hash` of the certificate whose winners this amends. */
  certificate_hash: string;
  /** 1, 2, … per giveaway, without gaps. */
  sequence: number;
  /** The `hash` of amendment `sequence − 1`, or null for the first. */
  previous: string | null;
  /** The winner position (1-based) whose holder is replaced. */
  position: number;
  replaced: AmendedEntrant;
  /** The substitute: `reserve_position` is its rank among the reserves, 1 = the first reserve. */
  by: AmendedEntrant & { reserve_position: number };
  reason: AmendmentReason;
  note: string | null;
  amended_at: string;
}

export type Amendment = AmendmentBody & SignedMembers;

/** What of a certificate the amendment rules read. */
export type AmendableCertificate = {
  hash: string;
  winners: readonly EntrantWinner[];
  reserves: readonly EntrantWinner[];
};

/**
 * The reserve the next amendment must take: reserves are used one per amendment, in reserve
 * order, so amendment k takes reserve k. Undefined when every reserve is used.
 */
export function nextReserve<W = EntrantWinner>(
  certificate: { reserves: readonly W[] },
  amendmentsSoFar: number,
): { reservePosition: number; entrant: W } | undefined {
  const entrant = certificate.reserves[amendmentsSoFar];
  return entrant && { reservePosition: amendmentsSoFar + 1, entrant };
}

/**
 * A winners list after `amendments`, applied in sequence: each substitute, taken from `reserves`
 * by its reserve position, stands at the position it took (`place` gives it that position in
 * the list's own shape). Amendments whose position or reserve is out of range change nothing.
 */
export function amendedList<W>(
  winners: readonly W[],
  reserves: readonly W[],
  amendments: readonly Pick<AmendmentBody, 'position' | 'by'>[],
  place: (substitute: W, position: number) => W,
): W[] {
  const list = [...winners];
  for (const a of amendments) {
    const substitute = reserves[a.by.reserve_position - 1];
    if (substitute === undefined || a.position < 1 || a.position > list.length) continue;
    list[a.position - 1] = place(substitute, a.position);
  }
  return list;
}

/**
 * The certificate's winners after `amendments`: the same shape as its `winners`, each substitute
 * with the proof the certificate lists for it as a reserve, at the position it took.
 */
export function amendedWinners(
  certificate: Pick<AmendableCertificate, 'winners' | 'reserves'>,
  amendments: readonly Pick<AmendmentBody, 'position' | 'by'>[],
): EntrantWinner[] {
  return amendedList(certificate.winners, certificate.reserves, amendments, (w, position) => ({
    ...w,
    position,
  }));
}

export const AMENDMENT_CHECKS = {
  'amendment-certificate': 'Certificate to amend',
  'amendment-format': 'Amendment format',
  'amendment-giveaway': 'Amendment names this draw',
  'amendment-sequence': 'Amendment sequence',
  'amendment-previous': 'Amendment chain',
  'amendment-hash': 'Amendment hash',
  'amendment-signature': 'Amendment signature',
  'amendment-time': 'Amendment time',
  'amendment-position': 'Amended position',
  'amendment-replaced': 'Replaced winner',
  'amendment-reserve': 'Next unused reserve',
} as const;
export type AmendmentCheckId = keyof typeof AMENDMENT_CHECKS;

export interface AmendmentFailure {
  check: AmendmentCheckId;
  /** 1-based place of the amendment in the list checked; 0 for the certificate itself. */
  at: number;
  detail: string;
}

export interface AmendmentsVerdict {
  valid: boolean;
  failures: AmendmentFailure[];
  /** The winners after every amendment, when the certificate could be read. */
  amendedWinners: EntrantWinner[] | null;
}

export interface CheckAmendmentsInput {
  /** The signed v2 certificate (annotations beside it are ignored). */
  certificate: unknown;
  /** The signed amendments, in sequence (the `amendments` annotation). */
  amendments: unknown;
  /** /.well-known/tyche-keys.json: amendments are signed with the keys that sign seals. */
  keys: unknown;
  sha256: Sha256;
  verify?: Ed25519Verify;
}

const isIndex = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isEntrantRef = (v: unknown): v is AmendedEntrant =>
  isRecord(v) && isIndex(v.index) && typeof v.leaf_hash === 'string' && HEX32.test(v.leaf_hash);

function certificateProblem(cert: unknown): string | null {
  if (!isRecord(cert)) return 'the certificate is not a JSON object';
  if (typeof cert.hash !== 'string' || !HEX32.test(cert.hash)) return 'its hash is not 64 lower-case hex';
  if (!isRecord(cert.seal) || !isRecord(cert.seal.giveaway)) return 'it has no seal (not tyche-draw-v2)';
  if (typeof cert.seal.giveaway.public_id !== 'string') return 'its seal names no giveaway';
  if (Number.isNaN(parseIsoMs(cert.drawn_at))) return 'its drawn_at is not an RFC 3339 UTC time';
  for (const list of ['winners', 'reserves'] as const) {
    const entries = cert[list];
    if (!Array.isArray(entries)) return `its ${list} is not a list`;
    for (const [i, e] of entries.entries()) {
      if (!isEntrantRef(e) || !isCount((e as { position?: unknown }).position))
        return `its ${list}[${i}] has no position, index or leaf_hash`;
    }
  }
  return null;
}

/** Why `a` is not shaped as a tyche-amendment-v2, or null. */
export function amendmentFormatProblem(a: unknown): string | null {
  if (!isRecord(a)) return 'not a JSON object';
  if (a.type !== AMENDMENT_TYPE) return `type is ${JSON.stringify(a.type)}, not "${AMENDMENT_TYPE}"`;
  if (typeof a.amendment_id !== 'string') return 'amendment_id is not a string';
  if (typeof a.giveaway !== 'string') return 'giveaway is not a string';
  if (typeof a.certificate_hash !== 'string' || !HEX32.test(a.certificate_hash))
    return 'certificate_hash is not 64 lower-case hex';
  if (!isCount(a.sequence)) return 'sequence is not a positive integer';
  if (a.previous !== null && (typeof a.previous !== 'string' || !HEX32.test(a.previous)))
    return 'previous is neither null nor 64 lower-case hex';
  if (!isCount(a.position)) return 'position is not a positive integer';
  if (!isEntrantRef(a.replaced)) return 'replaced is not {index, leaf_hash}';
  if (!isEntrantRef(a.by) || !isCount((a.by as { reserve_position?: unknown }).reserve_position))
    return 'by is not {reserve_position, index, leaf_hash}';
  if (!AMENDMENT_REASONS.includes(a.reason as AmendmentReason))
    return `reason ${JSON.stringify(a.reason)} is not one of ${AMENDMENT_REASONS.join(', ')}`;
  if (a.note !== null && (typeof a.note !== 'string' || [...a.note].length > AMENDMENT_NOTE_MAX))
    return `note is neither null nor a text of at most ${AMENDMENT_NOTE_MAX} characters`;
  if (Number.isNaN(parseIsoMs(a.amended_at))) return 'amended_at is not an RFC 3339 UTC time';
  if (typeof a.hash !== 'string' || !HEX32.test(a.hash)) return 'hash is not 64 lower-case hex';
  if (!isRecord(a.signature)) return 'signature is missing';
  return null;
}

const sameEntrant = (a: AmendedEntrant, b: AmendedEntrant) =>
  a.index === b.index && a.leaf_hash === b.leaf_hash;

/**
 * CONTRACT §14: the chain of amendments of one certificate. Each must be well formed, name this
 * draw, carry sequence 1, 2, … and the previous amendment's hash, hash and sign its own canonical
 * JSON with a published key (as seals do), follow the previous one in time, replace the winner
 * who holds its position at that point, and take the next unused reserve — nothing else could
 * have been chosen. Every failure is named, with the amendment it is about.
 */
export function checkAmendments(input: CheckAmendmentsInput): AmendmentsVerdict {
  const failures: AmendmentFailure[] = [];
  const fail = (check: AmendmentCheckId, at: number, detail: string) => failures.push({ check, at, detail });
  const problem = certificateProblem(input.certificate);
  if (problem !== null) {
    fail('amendment-certificate', 0, problem);
    return { valid: false, failures, amendedWinners: null };
  }
  const cert = input.certificate as AmendableCertificate & {
    seal: { giveaway: { public_id: string } };
    drawn_at: string;
  };
  if (!Array.isArray(input.amendments)) {
    fail('amendment-format', 0, 'the amendments are not a list');
    return { valid: false, failures, amendedWinners: null };
  }
  const holders = cert.winners.map((w): AmendedEntrant => ({ index: w.index, leaf_hash: w.leaf_hash }));
  const applied: Pick<AmendmentBody, 'position' | 'by'>[] = [];
  let previousHash: string | null = null;
  let previousAt = parseIsoMs(cert.drawn_at);

  for (const [i, raw] of (input.amendments as unknown[]).entries()) {
    const at = i + 1;
    const format = amendmentFormatProblem(raw);
    if (format !== null) {
      fail('amendment-format', at, format);
      // Its hash, if any, still chains the next one; nothing else of it can be trusted.
      previousHash = isRecord(raw) && typeof raw.hash === 'string' ? raw.hash : null;
      continue;
    }
    const a = raw as Amendment;
    if (a.giveaway !== cert.seal.giveaway.public_id || a.certificate_hash !== cert.hash) {
      fail(
        'amendment-giveaway',
        at,
        `it amends giveaway ${a.giveaway}, certificate ${a.certificate_hash}; this is ${cert.seal.giveaway.public_id}, ${cert.hash}`,
      );
    }
    if (a.sequence !== at) fail('amendment-sequence', at, `sequence is ${a.sequence}, expected ${at}`);
    if (a.previous !== previousHash) {
      fail('amendment-previous', at, `previous is ${a.previous}, expected ${previousHash ?? 'null'}`);
    }
    const hashProblem = objectHashProblem(a, input.sha256);
    if (hashProblem !== null) fail('amendment-hash', at, hashProblem);
    const signatureProblem = objectSignatureProblem(a, input.keys, input.verify);
    if (signatureProblem !== null) fail('amendment-signature', at, signatureProblem);
    const amendedAt = parseIsoMs(a.amended_at);
    if (amendedAt < previousAt) {
      fail(
        'amendment-time',
        at,
        `amended_at ${a.amended_at} is earlier than the draw or amendment before it`,
      );
    }
    previousAt = Math.max(previousAt, amendedAt);
    previousHash = a.hash;

    const expected = nextReserve(cert, applied.length);
    if (a.position > holders.length) {
      fail('amendment-position', at, `position ${a.position} is not a winner position (1–${holders.length})`);
    } else if (!sameEntrant(a.replaced, holders[a.position - 1])) {
      const holder = holders[a.position - 1];
      fail(
        'amendment-replaced',
        at,
        `position ${a.position} was held by index ${holder.index} (${holder.leaf_hash}), not ${a.replaced.index}`,
      );
    }
    if (!expected) {
      fail('amendment-reserve', at, `every one of the ${cert.reserves.length} reserves was already used`);
      continue;
    }
    const wanted = { index: expected.entrant.index, leaf_hash: expected.entrant.leaf_hash };
    if (a.by.reserve_position !== expected.reservePosition || !sameEntrant(a.by, wanted)) {
      fail(
        'amendment-reserve',
        at,
        `the next unused reserve is reserve ${expected.reservePosition} (index ${wanted.index}), not reserve ${a.by.reserve_position} (index ${a.by.index})`,
      );
    }
    const by = { ...wanted, reserve_position: expected.reservePosition };
    if (a.position <= holders.length) holders[a.position - 1] = wanted;
    applied.push({ position: a.position, by });
  }
  return {
    valid: failures.length === 0,
    failures,
    amendedWinners: amendedWinners(cert, applied),
  };
}
