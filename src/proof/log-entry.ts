// What a transparency-log entry holds (CONTRACT §8): the exact RFC 8785 bytes of one signed object
// — a seal, a certificate, a `tyche-key` entry that announces or retires a signing key, or a
// `tyche-result` entry that counts a signed random result (proof/result-entry.ts). Pure, so
// the server, `tyche log verify`, tyche-verify.mjs and the pages read entries with the same code.

import { AMENDMENT_TYPE } from './amendments.ts';
import { canonicalJsonBytes } from './canonical-json.ts';
import { certificateLeafData, isCertificateDigest } from './certificate-entry.ts';
import type { Sha256 } from './digest.ts';
import { ALGORITHM } from './draw-v1.ts';
import { bytesEqual, fromBase64url, toBase64url, toHex } from './hex.ts';
import { isRecord } from './report.ts';
import { RESULT_ENTRY_TYPE } from './result-entry.ts';
import { type Ed25519Verify, objectHashProblem, objectSignatureProblem } from './signed-object.ts';
import { ALGORITHM_V2 } from './v2-types.ts';

export type LogEntryKind = 'seal' | 'certificate' | 'key' | 'result' | 'amendment';
export const LOG_ENTRY_KINDS: readonly LogEntryKind[] = ['seal', 'certificate', 'key', 'result', 'amendment'];
export const KEY_ENTRY_TYPE = 'tyche-key';
export const SEAL_TYPE = 'tyche-seal-v2';

/**
 * Members a published seal or certificate document carries beside the signed object: evidence
 * about it (where it sits in the log, who witnessed its seal, the RFC 3161 tokens that date it),
 * added after signing and checked by its own evidence, never part of the signed bytes. Exactly the
 * annotation list of CONTRACT §13.
 */
export const LOG_ANNOTATIONS = [
  'log_index',
  'seal_log_index',
  'seal_witness',
  'seal_timestamps',
  'certificate_timestamps',
  'amendments',
  'amended_winners',
] as const;

/** The signed object of a published document, and the log annotations that came with it. */
export function splitLogAnnotations(doc: unknown): { signed: unknown; annotations: Record<string, unknown> } {
  if (!isRecord(doc)) return { signed: doc, annotations: {} };
  const signed: Record<string, unknown> = { ...doc };
  const annotations: Record<string, unknown> = {};
  for (const name of LOG_ANNOTATIONS) {
    if (name in signed) {
      annotations[name] = signed[name];
      delete signed[name];
    }
  }
  return { signed, annotations };
}

/** The leaf data of a signed object: its RFC 8785 bytes, `hash` and `signature` included. */
export function leafDataOf(signed: unknown): Uint8Array {
  return canonicalJsonBytes(signed);
}

/**
 * The leaf data a signed object is appended with: its own bytes, except a certificate too long for
 * an entry bundle, which is logged as its digest (certificate-entry.ts, CONTRACT §16).
 */
export function loggedLeafData(kind: LogEntryKind, signed: unknown): Uint8Array {
  return kind === 'certificate' && isRecord(signed) ? certificateLeafData(signed) : leafDataOf(signed);
}

/** The `kind` a signed object is logged as, or null when it is none of them. */
export function kindOf(obj: unknown): LogEntryKind | null {
  if (!isRecord(obj)) return null;
  if (obj.type === SEAL_TYPE) return 'seal';
  if (obj.type === KEY_ENTRY_TYPE) return 'key';
  if (obj.type === RESULT_ENTRY_TYPE) return 'result';
  if (obj.type === AMENDMENT_TYPE) return 'amendment';
  if (obj.algorithm === ALGORITHM || obj.algorithm === ALGORITHM_V2) return 'certificate';
  if (isCertificateDigest(obj)) return 'certificate';
  return null;
}

/** The id an entry of each kind is about: the seal, certificate or key id, or a result's serial. */
export function entryIdOf(obj: Record<string, unknown>, kind: LogEntryKind): unknown {
  if (kind === 'result') return String(obj.serial);
  if (kind === 'amendment') return obj.amendment_id;
  return kind === 'seal' ? obj.seal_id : kind === 'certificate' ? obj.certificate_id : obj.kid;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type ReadEntry = { ok: true; object: Record<string, unknown> } | { ok: false; problem: string };

/**
 * The object in an entry's leaf data, checked to be exactly its own canonical form (so one object
 * has one leaf) and of the kind the log says; without `kind` (an entry bundle names none), of any
 * kind a log holds.
 */
export function readLogEntry(leafData: Uint8Array, kind?: string, id?: string): ReadEntry {
  let object: unknown;
  try {
    object = JSON.parse(decoder.decode(leafData));
  } catch {
    return { ok: false, problem: 'its leaf data is not UTF-8 JSON' };
  }
  if (!isRecord(object)) return { ok: false, problem: 'its leaf data is not a JSON object' };
  let canonical: Uint8Array;
  try {
    canonical = canonicalJsonBytes(object);
  } catch (error) {
    return { ok: false, problem: `its leaf data has no canonical form (${(error as Error).message})` };
  }
  if (!bytesEqual(canonical, leafData)) {
    return { ok: false, problem: 'its leaf data is not RFC 8785 canonical JSON' };
  }
  const actual = kindOf(object);
  if (actual === null && kind === undefined) return { ok: false, problem: 'it holds no known object' };
  if (actual === null || (kind !== undefined && actual !== kind))
    return { ok: false, problem: `it is logged as ${kind} but holds ${actual ?? 'no known object'}` };
  if (id !== undefined && entryIdOf(object, actual) !== id) {
    return {
      ok: false,
      problem: `it is logged as ${kind} ${id} but holds ${String(entryIdOf(object, actual))}`,
    };
  }
  return { ok: true, object };
}

/** The key id Tyche gives an Ed25519 key: the first 16 hex digits of SHA-256 of its 32 bytes. */
export function kidOfKey(publicKey: Uint8Array, sha256: Sha256): string {
  return toHex(sha256(publicKey)).slice(0, 16);
}

export interface KeyAnnouncement {
  kid: string;
  publicKey: Uint8Array;
  /** RFC 3339 UTC with milliseconds. */
  createdAt: string;
  /** Present on the entry that retires the key. */
  retiredAt?: string;
}

/** The unsigned body of a `tyche-key` entry; the log key adds `hash` and `signature`. */
export function keyEntryBody(key: KeyAnnouncement): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: KEY_ENTRY_TYPE,
    kid: key.kid,
    public_key: toBase64url(key.publicKey),
    created_at: key.createdAt,
  };
  if (key.retiredAt !== undefined) body.retired_at = key.retiredAt;
  return body;
}

/** The keys document a log key makes: one JWK, so the signed-object checks find it by kid. */
export function logKeyDocument(logPublicKey: Uint8Array, sha256: Sha256) {
  return {
    keys: [{ kty: 'OKP', crv: 'Ed25519', kid: kidOfKey(logPublicKey, sha256), x: toBase64url(logPublicKey) }],
  };
}

const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type OpenedKeyEntry = { ok: true; key: KeyAnnouncement } | { ok: false; problem: string };

/**
 * A `tyche-key` entry checked against the log key: its fields, its kid (derived from the key, so a
 * kid names one key forever), its hash and its signature by the log key.
 */
export function openKeyEntry(
  obj: unknown,
  logPublicKey: Uint8Array,
  sha256: Sha256,
  verify?: Ed25519Verify,
): OpenedKeyEntry {
  if (!isRecord(obj) || obj.type !== KEY_ENTRY_TYPE) return { ok: false, problem: 'not a tyche-key entry' };
  const publicKey = typeof obj.public_key === 'string' ? fromBase64url(obj.public_key) : null;
  if (publicKey?.length !== 32) return { ok: false, problem: 'public_key is not 32 bytes of base64url' };
  if (obj.kid !== kidOfKey(publicKey, sha256)) {
    return { ok: false, problem: `kid ${JSON.stringify(obj.kid)} is not the id of its public_key` };
  }
  if (typeof obj.created_at !== 'string' || !RFC3339_MS.test(obj.created_at)) {
    return { ok: false, problem: 'created_at is not an RFC 3339 UTC time' };
  }
  if (
    obj.retired_at !== undefined &&
    (typeof obj.retired_at !== 'string' || !RFC3339_MS.test(obj.retired_at))
  ) {
    return { ok: false, problem: 'retired_at is not an RFC 3339 UTC time' };
  }
  const problem =
    objectHashProblem(obj, sha256) ??
    objectSignatureProblem(obj, logKeyDocument(logPublicKey, sha256), verify);
  if (problem) return { ok: false, problem: `not signed by the log key: ${problem}` };
  const key: KeyAnnouncement = { kid: obj.kid, publicKey, createdAt: obj.created_at };
  if (typeof obj.retired_at === 'string') key.retiredAt = obj.retired_at;
  return { ok: true, key };
}
