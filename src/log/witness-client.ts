import { verifyCosignature } from '../proof/cosignature.ts';
import { type NoteSignature, parseNote, type VerifierKey } from '../proof/note.ts';
import {
  formatAddCheckpoint,
  parseCosignatureLines,
  parseSizeAnswer,
  SIZE_CONTENT_TYPE,
} from '../proof/witness-protocol.ts';

/** What a witness answered one add-checkpoint (c2sp.org/tlog-witness). */
export type WitnessAnswer =
  | { status: 'cosigned'; signatures: NoteSignature[] }
  | { status: 'conflict'; size: number }
  | { status: 'failed'; reason: string };

export interface WitnessRequest {
  /** The witness's submission prefix; `/add-checkpoint` is appended. */
  url: string;
  witnessKey: VerifierKey;
  oldSize: number;
  proof: Uint8Array[];
  /** The checkpoint note as the log signed it. */
  note: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** A witness that answers more than this is not answering add-checkpoint. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Asks one witness to cosign a checkpoint (c2sp.org/tlog-witness). Every failure, of the network
 * or of the witness, comes back as an answer rather than an exception: the caller is a durable
 * job that retries. Of the answer's cosignatures only those by `witnessKey` that verify over this
 * checkpoint are kept (the spec asks clients to ignore the rest); none at all is a failure.
 */
export async function submitToWitness(request: WitnessRequest): Promise<WitnessAnswer> {
  const { url, witnessKey, oldSize, proof, note, timeoutMs } = request;
  let body: string;
  let text: string;
  try {
    text = parseNote(note).text;
    body = formatAddCheckpoint({ oldSize, proof, note });
  } catch (error) {
    return { status: 'failed', reason: `the request cannot be made: ${(error as Error).message}` };
  }
  let status: number;
  let contentType: string;
  let answer: string;
  try {
    const res = await (request.fetch ?? fetch)(`${url.replace(/\/+$/, '')}/add-checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.status;
    contentType = res.headers.get('content-type') ?? '';
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > MAX_ANSWER_BYTES)
      return { status: 'failed', reason: `HTTP ${status}: an oversized answer` };
    answer = new TextDecoder().decode(bytes);
  } catch (error) {
    return { status: 'failed', reason: `cannot reach it: ${(error as Error).message}` };
  }
  if (status === 409) {
    const size = contentType.split(';')[0].trim() === SIZE_CONTENT_TYPE ? parseSizeAnswer(answer) : null;
    return size === null
      ? { status: 'failed', reason: `a 409 without a ${SIZE_CONTENT_TYPE} size: ${excerpt(answer)}` }
      : { status: 'conflict', size };
  }
  if (status !== 200) return { status: 'failed', reason: `HTTP ${status}: ${excerpt(answer)}` };
  let lines: NoteSignature[];
  try {
    lines = parseCosignatureLines(answer);
  } catch (error) {
    return { status: 'failed', reason: `an unreadable answer: ${(error as Error).message}` };
  }
  const signatures = lines.filter((line) => verifyCosignature(text, line, witnessKey).ok);
  return signatures.length > 0
    ? { status: 'cosigned', signatures }
    : { status: 'failed', reason: `no cosignature in its answer verifies under ${witnessKey.name}'s key` };
}

const excerpt = (text: string) => text.slice(0, 200).trim();
