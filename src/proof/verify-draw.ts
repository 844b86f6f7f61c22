// The checks of docs/draw-algorithm.md §8 "Verifying a certificate", as one piece of code for
// `tyche verify` and the browser button. Served to browsers after type stripping, so it imports
// only the other served modules and uses nothing beyond Web Crypto (globalThis.crypto.subtle).
// Type-only: erased when served, so the browser never loads certificate.ts (it needs node:crypto).

import type { Certificate, CertificateRandomness } from '../giveaways/certificate.ts';
import { canonicalJsonBytes } from './canonical-json.ts';
import {
  ALGORITHM,
  beaconR,
  canonicalOrder,
  drawSeed,
  fromHex,
  participantsHash,
  pickWinners,
  type Sha256,
  type TelegramId,
  toHex,
} from './draw-v1.ts';

export type { Certificate };

export type CheckId =
  | 'format'
  | 'hash'
  | 'signature'
  | 'randomness'
  | 'beacon'
  | 'seed'
  | 'winners'
  | 'participants';

export interface CheckResult {
  id: CheckId;
  label: string;
  ok: boolean;
  detail: string;
}

export interface VerifyReport {
  valid: boolean;
  checks: CheckResult[];
}

export interface VerifyInput {
  certificate: unknown;
  /** The document served at /.well-known/tyche-keys.json: `{"keys": [JWK…]}`. */
  keys: unknown;
  /** The participants' telegram_ids (any order), when the verifier has the list. */
  participantIds?: readonly TelegramId[];
  sha256: Sha256;
  subtle?: SubtleCrypto;
}

/** Where a Tyche server publishes the keys that sign its certificates. */
export const KEYS_PATH = '/.well-known/tyche-keys.json';

/** The complete published value of a beacon: NIST outputValue, drand randomness. */
export const BEACON_VALUE_BYTES: Readonly<Record<string, number>> = { nist: 64, drand: 32 };
export const PRIVATE_SOURCES: readonly string[] = ['anu', 'system'];

const HEX32 = /^[0-9a-f]{64}$/;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

/** Why the certificate cannot be read as tyche-draw-v1, or null when it can. */
export function formatProblem(cert: unknown): string | null {
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

function decodeBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  // Unused trailing bits must be zero, otherwise two texts would name one signature.
  const again = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return again === text ? bytes : null;
}

function keyFor(keys: unknown, kid: unknown): Record<string, unknown> | undefined {
  const list = isRecord(keys) && Array.isArray(keys.keys) ? keys.keys : [];
  return list.find(
    (k): k is Record<string, unknown> => isRecord(k) && typeof kid === 'string' && k.kid === kid,
  );
}

function bodyBytes(cert: Record<string, unknown>): Uint8Array | null {
  const { hash: _hash, signature: _signature, ...body } = cert;
  try {
    return canonicalJsonBytes(body);
  } catch {
    return null;
  }
}

const LABELS: Record<CheckId, string> = {
  format: 'Certificate format',
  hash: 'Certificate hash',
  signature: 'Ed25519 signature',
  randomness: 'Randomness R',
  beacon: 'Public beacon record',
  seed: 'Seed',
  winners: 'Winner selection',
  participants: 'Participant list',
};
const pass = (id: CheckId, detail: string): CheckResult => ({ id, label: LABELS[id], ok: true, detail });
const fail = (id: CheckId, detail: string): CheckResult => ({ id, label: LABELS[id], ok: false, detail });

async function checkHash(cert: Record<string, unknown>, subtle: SubtleCrypto): Promise<CheckResult> {
  const bytes = bodyBytes(cert);
  if (!bytes) return fail('hash', 'the certificate has no canonical JSON form');
  const digest = toHex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
  return digest === cert.hash
    ? pass('hash', `SHA-256 of the canonical JSON is ${digest}`)
    : fail('hash', `SHA-256 of the canonical JSON is ${digest}, not ${String(cert.hash)}`);
}

async function checkSignature(cert: Record<string, unknown>, keys: unknown, subtle: SubtleCrypto) {
  const sig = isRecord(cert.signature) ? cert.signature : {};
  if (sig.alg !== 'Ed25519')
    return fail('signature', `signature.alg is ${JSON.stringify(sig.alg)}, not "Ed25519"`);
  const jwk = keyFor(keys, sig.kid);
  if (!jwk) return fail('signature', `key ${JSON.stringify(sig.kid)} is not among the published keys`);
  const raw = typeof sig.value === 'string' ? decodeBase64url(sig.value) : null;
  if (raw?.length !== 64) return fail('signature', 'signature.value is not 64 bytes of base64url');
  const x = typeof jwk.x === 'string' ? decodeBase64url(jwk.x) : null;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || x?.length !== 32) {
    return fail('signature', 'the published key is not an Ed25519 key');
  }
  const bytes = bodyBytes(cert);
  if (!bytes) return fail('signature', 'the certificate has no canonical JSON form');
  let ok: boolean;
  try {
    const algorithm = { name: 'Ed25519' };
    const key = await subtle.importKey('raw', x as Uint8Array<ArrayBuffer>, algorithm, false, ['verify']);
    ok = await subtle.verify(
      algorithm,
      key,
      raw as Uint8Array<ArrayBuffer>,
      bytes as Uint8Array<ArrayBuffer>,
    );
  } catch (error) {
    return fail('signature', `cannot verify Ed25519 here: ${(error as Error).message}`);
  }
  return ok
    ? pass('signature', `valid, by published key ${String(sig.kid)}`)
    : fail('signature', `does not verify under key ${String(sig.kid)}: the content is not what Tyche signed`);
}

function checkRandomness(r: CertificateRandomness, sha256: Sha256): CheckResult {
  if (PRIVATE_SOURCES.includes(r.source))
    return pass('randomness', `32 bytes from the private source ${r.source}`);
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
        `R = SHA-256(beacon value ‖ system entropy); the beacon value should match ${r.source} record ${r.source_reference}`,
      )
    : fail('randomness', `SHA-256(beacon value ‖ system entropy) is ${expected}, not ${r.bytes}`);
}

function checkWinners(cert: Certificate, seed: Uint8Array, sha256: Sha256): CheckResult {
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
  const shown = k <= 10 ? indices.join(', ') : `${indices.slice(0, 10).join(', ')}, … (${k} in all)`;
  return pass('winners', `tyche-draw-v1 picks canonical indices ${shown} of ${n}, as listed`);
}

function checkParticipants(cert: Certificate, given: readonly TelegramId[], sha256: Sha256): CheckResult {
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
  return pass('participants', `hash ${hash} matches; every winner's telegram_id is at its index`);
}

function checkSeed(cert: Certificate, seed: Uint8Array): CheckResult {
  const hex = toHex(seed);
  return hex === cert.seed
    ? pass('seed', `SHA-256("${ALGORITHM}" ‖ 0 ‖ participants_hash ‖ R) = ${hex}`)
    : fail('seed', `recomputed ${hex}, the certificate says ${cert.seed}`);
}

/** Runs every check; never throws on bad data, each defect is a failed check. */
export async function verifyDraw(input: VerifyInput): Promise<VerifyReport> {
  const subtle = input.subtle ?? globalThis.crypto.subtle;
  const { certificate, sha256 } = input;
  const problem = formatProblem(certificate);
  const checks = [problem === null ? pass('format', `readable as ${ALGORITHM}`) : fail('format', problem)];
  if (isRecord(certificate)) {
    checks.push(await checkHash(certificate, subtle), await checkSignature(certificate, input.keys, subtle));
  }
  if (problem === null) {
    const cert = certificate as unknown as Certificate;
    // The winners are re-drawn from the recomputed seed, so a wrong seed and wrong winners show separately.
    const seed = drawSeed(cert.participants_hash, fromHex(cert.randomness.bytes), sha256);
    checks.push(
      checkRandomness(cert.randomness, sha256),
      checkSeed(cert, seed),
      checkWinners(cert, seed, sha256),
    );
    if (input.participantIds) checks.push(checkParticipants(cert, input.participantIds, sha256));
  }
  return { valid: checks.every((c) => c.ok), checks };
}
