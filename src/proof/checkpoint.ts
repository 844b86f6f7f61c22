// c2sp.org/tlog-checkpoint: the note text a log signs to commit to its tree at one size. Parsed
// strictly, so one tree head has exactly one text and a signature covers nothing ambiguous.

import { fromBase64, toBase64 } from './hex.ts';
import {
  NOTE_ED25519,
  type NoteVerification,
  noteTextProblem,
  type ParsedNote,
  parseNote,
  parseVerifierKey,
  signNote,
  type VerifierKey,
  verifyNote,
} from './note.ts';

export interface Checkpoint {
  /** The log's identity; Tyche's is the host and path of its public URL + `/log`. */
  origin: string;
  size: number;
  /** RFC 9162 root of the first `size` entries. */
  root: Uint8Array;
  /** Opaque lines after the root; Tyche writes none. */
  extensions: string[];
}

/** What a log signs; extension lines are optional. */
export type CheckpointFields = Pick<Checkpoint, 'origin' | 'size' | 'root'> & {
  extensions?: readonly string[];
};

export type OpenedCheckpoint =
  | { ok: true; checkpoint: Checkpoint; note: ParsedNote; verification: NoteVerification }
  | { ok: false; problem: string };

const SIZE = /^(?:0|[1-9][0-9]*)$/;

function lineProblem(what: string, line: string): string | null {
  if (typeof line !== 'string' || line === '') return `the ${what} is empty`;
  if (line.includes('\n')) return `the ${what} holds a newline`;
  const problem = noteTextProblem(line);
  return problem ? `the ${what} ${problem}` : null;
}

/** `<origin>\n<size>\n<base64 root>\n`, then each extension line. */
export function formatCheckpoint(checkpoint: CheckpointFields): string {
  const { origin, size, root, extensions = [] } = checkpoint;
  const problem =
    lineProblem('origin', origin) ?? extensions.map((e) => lineProblem('extension line', e)).find(Boolean);
  if (problem) throw new TypeError(problem);
  if (!Number.isSafeInteger(size) || size < 0)
    throw new RangeError(`tree size ${size} is not a whole number`);
  if (root.length !== 32) throw new RangeError('the root hash has 32 bytes');
  return [origin, String(size), toBase64(root), ...extensions].map((line) => `${line}\n`).join('');
}

/**
 * The checkpoint in a note text; throws naming the first rule it breaks: at least three non-empty
 * lines, each ending in a newline; a decimal size without leading zeros (at most 2^53 − 1 here);
 * a root of 32 bytes in canonical padded base64; non-empty extension lines.
 */
export function parseCheckpoint(text: string): Checkpoint {
  const problem = typeof text === 'string' ? noteTextProblem(text) : 'is not text';
  if (problem) throw new TypeError(`malformed checkpoint: ${problem}`);
  if (!text.endsWith('\n')) throw new TypeError('malformed checkpoint: the last line must end in a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new TypeError('malformed checkpoint: fewer than three lines');
  const [origin, sizeText, rootText, ...extensions] = lines;
  if (origin === '') throw new TypeError('malformed checkpoint: the origin is empty');
  if (!SIZE.test(sizeText)) {
    throw new TypeError(`malformed checkpoint: ${JSON.stringify(sizeText)} is not a decimal tree size`);
  }
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size))
    throw new RangeError(`malformed checkpoint: tree size ${sizeText} is too large`);
  const root = fromBase64(rootText);
  if (root?.length !== 32) {
    throw new TypeError('malformed checkpoint: the root is not the base64 of 32 bytes');
  }
  if (extensions.some((line) => line === ''))
    throw new TypeError('malformed checkpoint: an empty extension line');
  return { origin, size, root, extensions };
}

/** The checkpoint as a note signed by the log key, whose name is the origin. */
export function signCheckpoint(checkpoint: CheckpointFields, seed: Uint8Array): string {
  return signNote(formatCheckpoint(checkpoint), checkpoint.origin, seed);
}

/**
 * A checkpoint note checked against the log's own key: the key's name must be the origin, its
 * signature must verify, and the text must be a checkpoint. Other signatures (cosignatures,
 * other log keys) are kept in `note` for whoever trusts them.
 */
export function openCheckpoint(note: string | Uint8Array, logKey: string | VerifierKey): OpenedCheckpoint {
  let key: VerifierKey;
  try {
    key = typeof logKey === 'string' ? parseVerifierKey(logKey) : logKey;
  } catch (error) {
    return { ok: false, problem: `the log key: ${(error as Error).message}` };
  }
  if (key.type !== NOTE_ED25519) return { ok: false, problem: `the log key has type ${key.type}, not 1` };
  let parsed: ParsedNote;
  try {
    parsed = parseNote(note);
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  const verification = verifyNote(parsed, [key]);
  if (!verification.ok) return { ok: false, problem: verification.problems.join('; ') };
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(parsed.text);
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  if (checkpoint.origin !== key.name) {
    return { ok: false, problem: `the checkpoint is of ${checkpoint.origin}, the key of ${key.name}` };
  }
  return { ok: true, checkpoint, note: parsed, verification };
}
