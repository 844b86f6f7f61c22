// The body of c2sp.org/tlog-witness `add-checkpoint`: `old <size>`, up to 63 consistency proof
// lines (base64 hashes), an empty line, then the checkpoint note. Parsed strictly, so a request
// means one thing to the log that sends it and the witness that cosigns it.

import { fromBase64, toBase64 } from '../proof/hex.ts';

/** The most proof lines a request may carry (tlog-witness). */
export const MAX_PROOF_LINES = 63;
/** Content type of a 409 answer: the witness's size, in decimal, and a newline. */
export const SIZE_CONTENT_TYPE = 'text/x.tlog.size';

export interface AddCheckpoint {
  oldSize: number;
  proof: Uint8Array[];
  /** The checkpoint as a signed note, with every signature it carries. */
  note: string;
}

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

export function formatAddCheckpoint({ oldSize, proof, note }: AddCheckpoint): string {
  if (proof.length > MAX_PROOF_LINES) throw new RangeError(`more than ${MAX_PROOF_LINES} proof lines`);
  return `old ${oldSize}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${note}`;
}

/** Throws a TypeError naming the first rule the body breaks. */
export function parseAddCheckpoint(body: string): AddCheckpoint {
  const blank = body.indexOf('\n\n');
  if (blank < 0) throw new TypeError('no empty line between the old size and proof and the checkpoint');
  const [first, ...proofLines] = body.slice(0, blank).split('\n');
  const size = first.startsWith('old ') ? first.slice(4) : '';
  if (!DECIMAL.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new TypeError('the first line must be "old <size>" with a decimal size');
  }
  if (proofLines.length > MAX_PROOF_LINES) throw new TypeError(`more than ${MAX_PROOF_LINES} proof lines`);
  const proof = proofLines.map((line, i) => {
    const hash = fromBase64(line);
    if (hash?.length !== 32) throw new TypeError(`proof line ${i + 1} is not the base64 of a 32-byte hash`);
    return hash;
  });
  return { oldSize: Number(size), proof, note: body.slice(blank + 2) };
}

/** The size line of a 409 answer. */
export function parseSizeAnswer(body: string): number | null {
  const text = body.endsWith('\n') ? body.slice(0, -1) : body;
  return DECIMAL.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}
