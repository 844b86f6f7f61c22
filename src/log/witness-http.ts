import { parseSignatureLine } from '../proof/note.ts';
import { formatAddCheckpoint, parseSizeAnswer } from './add-checkpoint.ts';
import type { SubmitToWitness } from './witness-job.ts';

/**
 * Asks one witness to cosign over HTTP (c2sp.org/tlog-witness). Every failure, of the network or
 * of the witness, is an answer rather than an exception: the witness job decides what to do.
 * Cosignatures are only parsed here; the job checks each against the witness's configured key.
 */
export const submitOverHttp: SubmitToWitness = async ({ url, oldSize, proof, note, timeoutMs }) => {
  let res: Response;
  try {
    res = await fetch(`${url}/add-checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: formatAddCheckpoint({ oldSize, proof, note }),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { status: 'failed', reason: `cannot reach it: ${(error as Error).message}` };
  }
  const body = await res.text().catch(() => '');
  if (res.status === 409) {
    const size = parseSizeAnswer(body);
    return size === null
      ? { status: 'failed', reason: 'a 409 without a tree size' }
      : { status: 'conflict', size };
  }
  if (res.status !== 200) {
    return { status: 'failed', reason: `HTTP ${res.status}: ${body.slice(0, 200).trim()}` };
  }
  try {
    const lines = body.split('\n').filter((line) => line !== '');
    return { status: 'cosigned', signatures: lines.map(parseSignatureLine) };
  } catch (error) {
    return { status: 'failed', reason: `an unreadable answer: ${(error as Error).message}` };
  }
};
