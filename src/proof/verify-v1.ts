// The content checks of a tyche-draw-v1 certificate (CONTRACT §5): format, randomness, seed,
// winners and, given the list, participants. The hash and signature checks are verifier.ts's,
// which runs these after them.

import { phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import {
  ALGORITHM,
  beaconR,
  canonicalOrder,
  drawSeed,
  participantsHash,
  pickWinners,
  type TelegramId,
} from './draw-v1.ts';
import { fromHex, toHex } from './hex.ts';
import {
  type Check,
  type Detail,
  guarded,
  HEX32,
  isCount,
  isRecord,
  type Label,
  makeCheck,
  shortList,
} from './report.ts';

export interface CertificateRandomness {
  source: string;
  request_id: string;
  bytes: string;
  source_reference: string;
  obtained_at: string;
  beacon_value?: string;
  system_entropy?: string;
}

export interface CertificateWinner {
  position: number;
  index: number;
  telegram_id: number;
  username: string | null;
}

/** The fields of CONTRACT §5 step 8, in its order; `hash` and `signature` are added by sealing. */
export interface CertificateV1Body {
  certificate_id: string;
  algorithm: typeof ALGORITHM;
  public_id: string;
  title: string;
  winners_count: number;
  participants_count: number;
  participants_hash: string;
  randomness: CertificateRandomness;
  seed: string;
  winners: CertificateWinner[];
  drawn_at: string;
}

/** A tyche-draw-v1 certificate (CONTRACT §5.8). */
export interface CertificateV1 extends CertificateV1Body {
  hash: string;
  signature: { alg: 'Ed25519'; kid: string; value: string };
}

/** The complete published value of a beacon: NIST outputValue, drand randomness. */
export const BEACON_VALUE_BYTES: Readonly<Record<string, number>> = { nist: 64, drand: 32 };
export const PRIVATE_SOURCES: readonly string[] = ['anu', 'system'];

export const V1_LABELS = {
  format: 'Certificate format',
  hash: 'Certificate hash',
  signature: 'Ed25519 signature',
  randomness: 'Randomness R',
  beacon: 'Public beacon record',
  seed: 'Seed',
  winners: 'Winner selection',
  participants: 'Participant list',
} as const;
export type V1CheckId = keyof typeof V1_LABELS;

/** A v1 label, coded `v1-<id>`: the same ids name other words in v2's labels. */
export const v1Label = (id: V1CheckId): Label => ({ code: `v1-${id}`, text: V1_LABELS[id] });
const pass = (id: V1CheckId, detail: Detail): Check => makeCheck(id, v1Label(id), null, detail);
const fail = (id: V1CheckId, detail: Detail): Check => makeCheck(id, v1Label(id), detail, '');

/** Why the certificate cannot be read as tyche-draw-v1, or null when it can. */
export function formatProblemV1(cert: unknown): string | null {
  if (!isRecord(cert)) return 'not a JSON object';
  if (cert.algorithm !== ALGORITHM) return `algorithm ${JSON.stringify(cert.algorithm)} is not ${ALGORITHM}`;
  for (const field of ['certificate_id', 'public_id', 'title', 'drawn_at'] as const) {
    if (typeof cert[field] !== 'string') return `${field} is not a string`;
  }
  if (!isCount(cert.winners_count)) return 'winners_count is not a positive integer';
  if (!isCount(cert.participants_count)) return 'participants_count is not a positive integer';
  for (const field of ['participants_hash', 'seed', 'hash'] as const) {
    if (typeof cert[field] !== 'string' || !HEX32.test(cert[field]))
      return `${field} is not 64 lower-case hex`;
  }
  const r = cert.randomness;
  if (!isRecord(r) || typeof r.source !== 'string') return 'randomness.source is missing';
  if (typeof r.bytes !== 'string' || !HEX32.test(r.bytes)) return 'randomness.bytes is not 32 bytes of hex';
  if (!Array.isArray(cert.winners)) return 'winners is not a list';
  for (const w of cert.winners) {
    if (!isRecord(w) || !isCount(w.position) || !Number.isSafeInteger(w.index) || !isCount(w.telegram_id)) {
      return 'a winner lacks an integer position, index or telegram_id';
    }
  }
  if (!isRecord(cert.signature)) return 'signature is missing';
  return null;
}

export function formatCheckV1(cert: unknown): Check {
  const problem = formatProblemV1(cert);
  return problem === null
    ? pass('format', phrase('format-ok', { algorithm: ALGORITHM }))
    : fail('format', problem);
}

function checkRandomness(r: CertificateRandomness, sha256: Sha256): Check {
  if (PRIVATE_SOURCES.includes(r.source))
    return pass('randomness', phrase('randomness-private', { source: r.source }));
  const beaconBytes = BEACON_VALUE_BYTES[r.source];
  if (beaconBytes === undefined) return fail('randomness', `unknown source ${JSON.stringify(r.source)}`);
  let beacon: Uint8Array;
  let expected: string;
  try {
    beacon = fromHex(String(r.beacon_value ?? ''));
    expected = toHex(beaconR(beacon, fromHex(String(r.system_entropy ?? '')), sha256));
  } catch (error) {
    return fail('randomness', `beacon_value or system_entropy: ${(error as Error).message}`);
  }
  if (beacon.length !== beaconBytes) {
    return fail('randomness', `a ${r.source} beacon value is ${beaconBytes} bytes, not ${beacon.length}`);
  }
  return expected === r.bytes
    ? pass(
        'randomness',
        phrase('randomness-beacon', { source: r.source, reference: String(r.source_reference) }),
      )
    : fail('randomness', `SHA-256(beacon value ‖ system entropy) is ${expected}, not ${r.bytes}`);
}

function checkSeed(cert: CertificateV1, seed: Uint8Array): Check {
  const hex = toHex(seed);
  return hex === cert.seed
    ? pass('seed', phrase('seed-v1-ok', { algorithm: ALGORITHM, seed: hex }))
    : fail('seed', phrase('seed-other', { seed: hex, given: cert.seed }));
}

function checkWinners(cert: CertificateV1, seed: Uint8Array, sha256: Sha256): Check {
  const n = cert.participants_count;
  const k = Math.min(cert.winners_count, n);
  if (cert.winners.length !== k) {
    return fail(
      'winners',
      `${cert.winners.length} winners listed, expected min(${cert.winners_count}, ${n}) = ${k}`,
    );
  }
  const indices = pickWinners(seed, n, k, sha256);
  if (new Set(cert.winners.map((w) => String(w.telegram_id))).size !== k) {
    return fail('winners', 'a telegram_id is listed as two winners');
  }
  for (const [i, w] of cert.winners.entries()) {
    if (w.position !== i + 1 || w.index !== indices[i]) {
      return fail(
        'winners',
        `winner ${i + 1} should be canonical index ${indices[i]}; the certificate says position ${w.position}, index ${w.index}`,
      );
    }
  }
  return pass(
    'winners',
    phrase('winners-v1-ok', { algorithm: ALGORITHM, indices: shortList(indices), count: n }),
  );
}

function checkParticipants(cert: CertificateV1, given: readonly TelegramId[], sha256: Sha256): Check {
  let ids: TelegramId[];
  try {
    ids = canonicalOrder(given);
  } catch (error) {
    return fail('participants', (error as Error).message);
  }
  if (ids.length !== cert.participants_count) {
    return fail(
      'participants',
      `the list has ${ids.length} participants, the certificate ${cert.participants_count}`,
    );
  }
  const hash = participantsHash(ids, sha256);
  if (hash !== cert.participants_hash)
    return fail('participants', `its hash is ${hash}, not ${cert.participants_hash}`);
  for (const w of cert.winners) {
    const at = ids[w.index];
    if (at === undefined || String(at) !== String(w.telegram_id)) {
      return fail(
        'participants',
        `winner ${w.position} is ${String(at)} at index ${w.index}, not ${w.telegram_id}`,
      );
    }
  }
  return pass('participants', phrase('participants-ok', { hash }));
}

/**
 * Randomness, seed, winners and (given the list) participants of a certificate whose format
 * check passed. The winners are re-drawn from the recomputed seed, so a wrong seed and wrong
 * winners show separately.
 */
export function contentChecksV1(
  cert: CertificateV1,
  sha256: Sha256,
  participantIds?: readonly TelegramId[],
): Check[] {
  const seed = drawSeed(cert.participants_hash, fromHex(cert.randomness.bytes), sha256);
  const checks = [
    guarded('randomness', v1Label('randomness'), () => checkRandomness(cert.randomness, sha256)),
    checkSeed(cert, seed),
    guarded('winners', v1Label('winners'), () => checkWinners(cert, seed, sha256)),
  ];
  if (participantIds) {
    checks.push(
      guarded('participants', v1Label('participants'), () => checkParticipants(cert, participantIds, sha256)),
    );
  }
  return checks;
}
