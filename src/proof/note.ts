// C2SP signed notes (c2sp.org/signed-note): text signed by one or more named keys, the form of the
// log's checkpoints and of witness cosignatures. Same rules as golang.org/x/mod/sumdb/note, so
// notes from other transparency-log tools open here and ours open there.

import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesEqual, fromBase64, fromHex, toBase64, toHex } from './hex.ts';

/** Signature type of plain Ed25519 note signatures over the note text. */
export const NOTE_ED25519 = 0x01;
/** More signature lines than this and a note is refused (the spec asks for at least 16). */
export const MAX_NOTE_SIGNATURES = 100;

export interface NoteSignature {
  name: string;
  /** 4 bytes: SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4]. */
  keyId: Uint8Array;
  signature: Uint8Array;
}

export interface ParsedNote {
  /** Everything up to and including the newline before the blank line: the signed bytes. */
  text: string;
  signatures: NoteSignature[];
}

export interface VerifierKey {
  name: string;
  keyId: Uint8Array;
  type: number;
  publicKey: Uint8Array;
}

export interface NoteVerification {
  /** True when a given key signed and every signature by a given key verified. */
  ok: boolean;
  /** The signed text, or '' when the note is malformed. */
  text: string;
  /** Signatures by the given keys that verify, one per key. */
  verified: NoteSignature[];
  /** Signatures by keys not given, which the spec says to ignore. */
  unknown: NoteSignature[];
  problems: string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const SIGNATURE_PREFIX = '\u2014 ';
// Go's unicode.IsSpace: the separators (Zs, Zl, Zp) and the C0/C1 spaces.
const SPACE = /[\p{Z}\t\n\v\f\r\u0085]/u;
// Key types whose keys this module reads, with their lengths: 0x04 is the tlog-cosignature Ed25519 cosigner.
const KEY_LENGTHS = new Map([
  [NOTE_ED25519, 32],
  [0x04, 32],
]);

/** Non-empty, valid UTF-8, no Unicode space and no '+'. */
export function isValidKeyName(name: string): boolean {
  return (
    typeof name === 'string' && name !== '' && name.isWellFormed() && !SPACE.test(name) && !name.includes('+')
  );
}

function checkName(name: string): void {
  if (!isValidKeyName(name)) throw new TypeError(`${JSON.stringify(name)} is not a valid key name`);
}

/** SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4]. */
export function noteKeyId(name: string, publicKey: Uint8Array, type: number = NOTE_ED25519): Uint8Array {
  checkName(name);
  if (!Number.isInteger(type) || type < 0 || type > 255) throw new RangeError('a key type is one byte');
  const head = encoder.encode(`${name}\n`);
  const input = new Uint8Array(head.length + 1 + publicKey.length);
  input.set(head);
  input[head.length] = type;
  input.set(publicKey, head.length + 1);
  return sha256(input).slice(0, 4);
}

/** `<name>+<hex key ID>+<base64(type ‖ public key)>`. */
export function verifierKey(name: string, publicKey: Uint8Array, type: number = NOTE_ED25519): string {
  const length = KEY_LENGTHS.get(type);
  if (length === undefined) throw new RangeError(`key type ${type} is not supported`);
  if (publicKey.length !== length) throw new RangeError(`a key of type ${type} has ${length} bytes`);
  const typed = new Uint8Array(1 + publicKey.length);
  typed[0] = type;
  typed.set(publicKey, 1);
  return `${name}+${toHex(noteKeyId(name, publicKey, type))}+${toBase64(typed)}`;
}

/**
 * A verifier key of a supported type (0x01 note keys, 0x04 cosigner keys), its key ID checked
 * against its name and key. Throws on anything else.
 */
export function parseVerifierKey(text: string): VerifierKey {
  const parts = typeof text === 'string' ? text.split('+') : [];
  // The base64 may itself hold '+': only the first two separate.
  const [name, hex] = parts;
  const encoded = parts.slice(2).join('+');
  if (parts.length < 3 || !isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(hex)) {
    throw new TypeError('a verifier key is <name>+<8 lower-case hex digits>+<base64>');
  }
  const typed = fromBase64(encoded);
  if (!typed || typed.length < 2) throw new TypeError(`the key of ${name} is not base64 of a typed key`);
  const type = typed[0];
  const publicKey = typed.slice(1);
  const length = KEY_LENGTHS.get(type);
  if (length === undefined) throw new TypeError(`the key of ${name} has type ${type}, not a supported one`);
  if (publicKey.length !== length)
    throw new TypeError(`the key of ${name} has ${publicKey.length} bytes, not ${length}`);
  const keyId = fromHex(hex);
  if (!bytesEqual(keyId, noteKeyId(name, publicKey, type))) {
    throw new TypeError(`the key ID of ${name} is not the hash of its name and key`);
  }
  return { name, keyId, type, publicKey };
}

export function formatSignatureLine(sig: NoteSignature): string {
  checkName(sig.name);
  if (sig.keyId.length !== 4) throw new RangeError('a key ID has 4 bytes');
  if (sig.signature.length < 1) throw new RangeError('an empty signature');
  const raw = new Uint8Array(4 + sig.signature.length);
  raw.set(sig.keyId);
  raw.set(sig.signature, 4);
  return `${SIGNATURE_PREFIX}${sig.name} ${toBase64(raw)}\n`;
}

/** Why `text` cannot be the text of a note (not well-formed, or a control character other than newline), or null. */
export function noteTextProblem(text: string): string | null {
  if (!text.isWellFormed()) return 'not valid UTF-8';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x0a) return 'holds a control character other than newline';
  }
  return null;
}

/** Text (ending in a newline), a blank line, then one line per signature. */
export function formatNote(text: string, signatures: readonly NoteSignature[]): string {
  const problem = noteTextProblem(text);
  if (problem) throw new TypeError(`the note text ${problem}`);
  if (!text.endsWith('\n')) throw new TypeError('the note text must end in a newline');
  if (signatures.length === 0) throw new RangeError('a signed note has at least one signature');
  if (signatures.length > MAX_NOTE_SIGNATURES)
    throw new RangeError(`more than ${MAX_NOTE_SIGNATURES} signatures`);
  return `${text}\n${signatures.map(formatSignatureLine).join('')}`;
}

/** Parses a signed note; throws naming the first rule it breaks. Checks no signature. */
export function parseNote(note: string | Uint8Array): ParsedNote {
  let message: string;
  if (typeof note === 'string') {
    message = note;
  } else {
    try {
      message = decoder.decode(note);
    } catch {
      throw new TypeError('malformed note: not valid UTF-8');
    }
  }
  const problem = noteTextProblem(message);
  if (problem) throw new TypeError(`malformed note: ${problem}`);
  const split = message.lastIndexOf('\n\n');
  if (split < 0) throw new TypeError('malformed note: no blank line before the signatures');
  const text = message.slice(0, split + 1);
  const block = message.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) {
    throw new TypeError('malformed note: the signatures must be lines ending in a newline');
  }
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) {
    throw new TypeError(`malformed note: more than ${MAX_NOTE_SIGNATURES} signatures`);
  }
  return { text, signatures: lines.map(parseSignatureLine) };
}

/** One `— <name> <base64(key ID ‖ signature)>` line, without its newline. */
export function parseSignatureLine(line: string): NoteSignature {
  if (!line.startsWith(SIGNATURE_PREFIX))
    throw new TypeError('malformed note: a signature line must start with "— "');
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  const name = space < 0 ? rest : rest.slice(0, space);
  if (!isValidKeyName(name)) throw new TypeError(`malformed note: ${JSON.stringify(name)} is not a key name`);
  const raw = space < 0 ? null : fromBase64(rest.slice(space + 1));
  if (!raw || raw.length < 5) {
    throw new TypeError(`malformed note: the signature of ${name} is not base64 of a key ID and a signature`);
  }
  return { name, keyId: raw.slice(0, 4), signature: raw.slice(4) };
}

/** The Ed25519 note signature of `text` by the key with this 32-byte seed (deterministic, RFC 8032). */
export function noteSignature(text: string, name: string, seed: Uint8Array): NoteSignature {
  checkName(name);
  const publicKey = ed25519.getPublicKey(seed);
  return { name, keyId: noteKeyId(name, publicKey), signature: ed25519.sign(encoder.encode(text), seed) };
}

/** `text` signed by one key, as a note. */
export function signNote(text: string, name: string, seed: Uint8Array): string {
  return formatNote(text, [noteSignature(text, name, seed)]);
}

function sameKey(sig: NoteSignature, key: VerifierKey): boolean {
  return sig.name === key.name && bytesEqual(sig.keyId, key.keyId);
}

const keyLabel = (sig: { name: string; keyId: Uint8Array }) => `${sig.name}+${toHex(sig.keyId)}`;

/**
 * Checks a note against Ed25519 note keys (type 0x01), as the spec asks: signatures by other
 * keys are set aside, every signature by a given key must verify, and at least one must.
 */
export function verifyNote(
  note: string | Uint8Array | ParsedNote,
  keys: readonly (string | VerifierKey)[],
): NoteVerification {
  const known = keys.map((k) => (typeof k === 'string' ? parseVerifierKey(k) : k));
  for (const key of known) {
    if (key.type !== NOTE_ED25519) {
      throw new TypeError(
        `${keyLabel(key)} is not a note key (type ${key.type}); cosigner keys are checked apart`,
      );
    }
  }
  let parsed: ParsedNote;
  try {
    parsed = typeof note === 'object' && 'text' in note ? note : parseNote(note);
  } catch (error) {
    return { ok: false, text: '', verified: [], unknown: [], problems: [(error as Error).message] };
  }
  const message = encoder.encode(parsed.text);
  const verified: NoteSignature[] = [];
  const unknown: NoteSignature[] = [];
  const problems: string[] = [];
  for (const sig of parsed.signatures) {
    const matches = known.filter((k) => sameKey(sig, k));
    const distinct = matches.filter(
      (k, i) => matches.findIndex((o) => bytesEqual(o.publicKey, k.publicKey)) === i,
    );
    if (distinct.length === 0) {
      const repeated = unknown.some(
        (u) =>
          u.name === sig.name && bytesEqual(u.keyId, sig.keyId) && bytesEqual(u.signature, sig.signature),
      );
      if (!repeated) unknown.push(sig);
      continue;
    }
    if (distinct.length > 1) {
      problems.push(`two different keys are given as ${keyLabel(sig)}`);
      continue;
    }
    let valid: boolean;
    try {
      valid = ed25519.verify(sig.signature, message, distinct[0].publicKey, { zip215: false });
    } catch {
      valid = false;
    }
    if (!valid) problems.push(`the signature by ${keyLabel(sig)} does not verify`);
    else if (!verified.some((v) => sameKey(v, distinct[0]))) verified.push(sig);
  }
  if (verified.length === 0 && problems.length === 0) problems.push('no signature by a given key');
  return { ok: problems.length === 0, text: parsed.text, verified, unknown, problems };
}
