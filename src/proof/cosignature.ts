// c2sp.org/tlog-cosignature v1, Ed25519: a witness's timestamped statement that a checkpoint is
// the largest consistent tree it has seen of that log. A cosignature is a note signature line of
// key type 0x04 whose bytes are u64_be(timestamp) ‖ Ed25519("cosignature/v1\ntime <t>\n" ‖ body).

import { ed25519 } from '@noble/curves/ed25519.js';
import { parseCheckpoint } from './checkpoint.ts';
import { bytesEqual, toHex } from './hex.ts';
import {
  type NoteSignature,
  noteKeyId,
  type ParsedNote,
  parseNote,
  parseVerifierKey,
  type VerifierKey,
  verifierKey,
} from './note.ts';

/** Key type of timestamped Ed25519 checkpoint cosignatures. */
export const COSIGNATURE_ED25519 = 0x04;

export type CosignatureCheck = { ok: true; timestamp: number } | { ok: false; problem: string };

export interface Cosigner {
  name: string;
  keyId: Uint8Array;
  /** POSIX seconds; the earliest valid cosignature by this key when it signed more than once. */
  timestamp: number;
}

const encoder = new TextEncoder();
const MAX_TIMESTAMP = 2n ** 63n - 1n;

function checkTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp ${timestamp} is not a whole number of seconds`);
  }
}

/** The signed message; throws unless the body is a checkpoint (its text up to the signatures). */
export function cosignatureMessage(checkpointBody: string, timestamp: number): Uint8Array {
  checkTimestamp(timestamp);
  parseCheckpoint(checkpointBody);
  return encoder.encode(`cosignature/v1\ntime ${timestamp}\n${checkpointBody}`);
}

/** SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key)[:4]. */
export function cosignerKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  return noteKeyId(name, publicKey, COSIGNATURE_ED25519);
}

/** `<name>+<hex key ID>+<base64(0x04 ‖ public key)>`, the form witnesses publish their keys in. */
export function cosignerVerifierKey(name: string, publicKey: Uint8Array): string {
  return verifierKey(name, publicKey, COSIGNATURE_ED25519);
}

/**
 * The cosignature by the witness key with this 32-byte seed, at `timestamp` (POSIX seconds,
 * not zero: tlog-witness forbids leaving the time out).
 */
export function cosign(
  checkpointBody: string,
  name: string,
  seed: Uint8Array,
  timestamp: number,
): NoteSignature {
  if (timestamp === 0) throw new RangeError('a cosignature carries the time it was made, never 0');
  const message = cosignatureMessage(checkpointBody, timestamp);
  const signature = new Uint8Array(8 + 64);
  new DataView(signature.buffer).setBigUint64(0, BigInt(timestamp));
  signature.set(ed25519.sign(message, seed), 8);
  return { name, keyId: cosignerKeyId(name, ed25519.getPublicKey(seed)), signature };
}

/** The time a cosignature claims, before any check: a number, or why it has none. */
export function cosignatureTimestamp(signature: NoteSignature): CosignatureCheck {
  if (signature.signature.length !== 8 + 64) {
    return {
      ok: false,
      problem: `a cosignature has 72 bytes after its key ID, not ${signature.signature.length}`,
    };
  }
  const view = new DataView(signature.signature.buffer, signature.signature.byteOffset, 8);
  const timestamp = view.getBigUint64(0);
  if (timestamp > MAX_TIMESTAMP) return { ok: false, problem: 'the timestamp exceeds 2^63 − 1' };
  if (timestamp > BigInt(Number.MAX_SAFE_INTEGER))
    return { ok: false, problem: 'the timestamp is past 2^53 − 1' };
  return { ok: true, timestamp: Number(timestamp) };
}

function asCosignerKey(key: string | VerifierKey): VerifierKey {
  const parsed = typeof key === 'string' ? parseVerifierKey(key) : key;
  if (parsed.type !== COSIGNATURE_ED25519) {
    throw new TypeError(
      `${parsed.name}+${toHex(parsed.keyId)} has type ${parsed.type}, not a cosigner key (4)`,
    );
  }
  return parsed;
}

/** One cosignature line against one cosigner key: its timestamp when it verifies over this checkpoint body. */
export function verifyCosignature(
  checkpointBody: string,
  signature: NoteSignature,
  cosignerKey: string | VerifierKey,
): CosignatureCheck {
  const key = asCosignerKey(cosignerKey);
  const label = `${key.name}+${toHex(key.keyId)}`;
  if (signature.name !== key.name || !bytesEqual(signature.keyId, key.keyId)) {
    return { ok: false, problem: `the signature is not by ${label}` };
  }
  const time = cosignatureTimestamp(signature);
  if (!time.ok) return { ok: false, problem: `${label}: ${time.problem}` };
  let message: Uint8Array;
  try {
    message = cosignatureMessage(checkpointBody, time.timestamp);
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  let valid: boolean;
  try {
    valid = ed25519.verify(signature.signature.subarray(8), message, key.publicKey, { zip215: false });
  } catch {
    valid = false;
  }
  return valid ? time : { ok: false, problem: `the cosignature by ${label} does not verify` };
}

/**
 * Every given cosigner that cosigned the note's checkpoint, each once, and a problem for every
 * cosignature line by a given key that fails. Lines by other keys (the log's own signature, other
 * witnesses) are ignored. The log's signature is openCheckpoint's business.
 */
export function verifyCosignatures(
  note: string | Uint8Array | ParsedNote,
  cosignerKeys: readonly (string | VerifierKey)[],
): { cosigners: Cosigner[]; problems: string[] } {
  const keys = cosignerKeys.map(asCosignerKey);
  let parsed: ParsedNote;
  try {
    parsed = typeof note === 'object' && 'text' in note ? note : parseNote(note);
  } catch (error) {
    return { cosigners: [], problems: [(error as Error).message] };
  }
  const cosigners: Cosigner[] = [];
  const problems: string[] = [];
  for (const sig of parsed.signatures) {
    const matches = keys.filter((k) => k.name === sig.name && bytesEqual(k.keyId, sig.keyId));
    const key = matches[0];
    if (!key) continue;
    if (matches.some((k) => !bytesEqual(k.publicKey, key.publicKey))) {
      problems.push(`two different keys are given as ${sig.name}+${toHex(sig.keyId)}`);
      continue;
    }
    const check = verifyCosignature(parsed.text, sig, key);
    if (!check.ok) {
      problems.push(check.problem);
      continue;
    }
    const seen = cosigners.find((c) => c.name === key.name && bytesEqual(c.keyId, key.keyId));
    if (!seen) cosigners.push({ name: key.name, keyId: key.keyId, timestamp: check.timestamp });
    else seen.timestamp = Math.min(seen.timestamp, check.timestamp);
  }
  return { cosigners, problems };
}
