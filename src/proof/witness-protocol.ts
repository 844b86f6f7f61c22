// The wire format of c2sp.org/tlog-witness: the add-checkpoint request (`old <size>`, up to 63
// consistency proof lines in base64, an empty line, the checkpoint note), the 409 answer (the
// witness's size) and the 200 answer (cosignature lines). Parsed strictly, so a request means one
// thing to the log that sends it and to the witness that cosigns it. No Node imports: verifiers
// in the browser read the same format.

import { fromBase64, toBase64 } from './hex.ts';
import { formatSignatureLine, type NoteSignature, parseSignatureLine } from './note.ts';

/** The most proof lines a request may carry: a consistency proof in a tree of 2^64 leaves. */
export const MAX_PROOF_LINES = 63;
/** Content type of a 409 answer, whose body is the witness's size in decimal and a newline. */
export const SIZE_CONTENT_TYPE = 'text/x.tlog.size';

export interface AddCheckpoint {
  oldSize: number;
  proof: Uint8Array[];
  /** The checkpoint as a signed note, with every signature it carries. */
  note: string;
}

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

function decimal(text: string): number | null {
  return DECIMAL.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

export function formatAddCheckpoint({ oldSize, proof, note }: AddCheckpoint): string {
  if (!Number.isSafeInteger(oldSize) || oldSize < 0)
    throw new RangeError(`old size ${oldSize} is not a size`);
  if (proof.length > MAX_PROOF_LINES) throw new RangeError(`more than ${MAX_PROOF_LINES} proof lines`);
  return `old ${oldSize}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${note}`;
}

/** Throws a TypeError naming the first rule the body breaks; the note itself is parseNote's business. */
export function parseAddCheckpoint(body: string): AddCheckpoint {
  if (body.includes('\r')) throw new TypeError('lines must end in a bare newline, without carriage returns');
  const blank = body.indexOf('\n\n');
  if (blank < 0) throw new TypeError('no empty line between the old size and proof and the checkpoint');
  const [first, ...proofLines] = body.slice(0, blank).split('\n');
  const oldSize = first.startsWith('old ') ? decimal(first.slice(4)) : null;
  if (oldSize === null) {
    throw new TypeError('the first line must be "old <size>", the size in decimal without leading zeros');
  }
  if (proofLines.length > MAX_PROOF_LINES) throw new TypeError(`more than ${MAX_PROOF_LINES} proof lines`);
  const proof = proofLines.map((line, i) => {
    const hash = fromBase64(line);
    if (hash?.length !== 32) throw new TypeError(`proof line ${i + 1} is not the base64 of a 32-byte hash`);
    return hash;
  });
  const note = body.slice(blank + 2);
  if (note === '') throw new TypeError('no checkpoint after the empty line');
  return { oldSize, proof, note };
}

/** The body of a 409 answer. */
export function formatSizeAnswer(size: number): string {
  return `${size}\n`;
}

/** The size a 409 answer names, or null when the body is not exactly a decimal and a newline. */
export function parseSizeAnswer(body: string): number | null {
  return body.endsWith('\n') ? decimal(body.slice(0, -1)) : null;
}

/** The body of a 200 answer: one note signature line per cosignature. */
export function formatCosignatureLines(signatures: readonly NoteSignature[]): string {
  if (signatures.length === 0) throw new RangeError('an answer carries at least one cosignature');
  return signatures.map(formatSignatureLine).join('');
}

/** The signature lines of a 200 answer; throws unless it is one or more lines, each ending in a newline. */
export function parseCosignatureLines(body: string): NoteSignature[] {
  if (body === '' || !body.endsWith('\n')) {
    throw new TypeError('the answer must be signature lines, each ending in a newline');
  }
  return body.slice(0, -1).split('\n').map(parseSignatureLine);
}
