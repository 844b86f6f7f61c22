import type { Job, JobOutcome } from '../jobs/job-runner.ts';
import { backoffMs } from '../jobs/job-runner.ts';
import { verifyCosignature } from '../proof/cosignature.ts';
import { formatSignatureLine, type VerifierKey } from '../proof/note.ts';
import type { Clock } from '../shared/clock.ts';
import type { LogService } from './log.service.ts';
import type { WitnessAnswer, WitnessRequest } from './witness-client.ts';

export type SubmitToWitness = (request: WitnessRequest) => Promise<WitnessAnswer>;

/** c2sp.org/tlog-witness asks clients to give a witness time; a dead one must not hold the queue long. */
const TIMEOUT_MS = 15_000;
/** After this many tries a checkpoint goes unwitnessed by the witnesses still failing: nothing waits on them. */
export const WITNESS_ATTEMPTS = 4;

/** A witness this log asks to cosign: where it listens and the key its cosignatures verify under. */
interface WitnessTarget {
  place: string;
  key: VerifierKey;
}

interface Deps {
  transparency: LogService;
  witnesses: readonly WitnessTarget[];
  submit: SubmitToWitness;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
}

/**
 * The job run after each append: hands the log's newest checkpoint, with a consistency proof from
 * the size each witness last saw, to every witness, and keeps the timestamped cosignatures that
 * verify under that witness's configured key. A witness that is down only leaves checkpoints
 * unwitnessed; the log never waits for one.
 */
export function createWitnessJob(deps: Deps) {
  const { transparency, witnesses, submit, clock } = deps;
  /** One witness, with one retry when it tells us it holds another size than we thought. */
  async function ask(
    witness: WitnessTarget,
    size: number,
    text: string,
    note: string,
  ): Promise<string | null> {
    let old = await transparency.witnessSize(witness.key.name);
    for (let attempt = 0; attempt < 2 && old < size; attempt++) {
      const proof = await transparency.log.consistencyProof(old, size);
      const answer = await submit({
        url: witness.place,
        witnessKey: witness.key,
        oldSize: old,
        proof,
        note,
        timeoutMs: TIMEOUT_MS,
      });
      if (answer.status === 'failed') return answer.reason;
      if (answer.status === 'conflict') {
        if (answer.size > size) return `it holds size ${answer.size}, beyond this log's ${size}`;
        old = answer.size;
        await transparency.rememberWitnessSize(witness.key.name, old);
        continue;
      }
      let stored = 0;
      for (const signature of answer.signatures) {
        const check = verifyCosignature(text, signature, witness.key);
        if (!check.ok) continue;
        const line = formatSignatureLine(signature).slice(0, -1);
        await transparency.recordCosignature(size, signature, line, check.timestamp * 1000);
        stored++;
      }
      if (stored === 0) return 'its answer carried no cosignature that verifies under its key';
      await transparency.rememberWitnessSize(witness.key.name, size);
      return null;
    }
    return old >= size ? null : `it kept answering another size than ${old}`;
  }

  return async function witness(job: Job): Promise<JobOutcome> {
    const { size } = await transparency.log.head();
    if (size === 0 || witnesses.length === 0) return { done: true };
    const { text, note } = await transparency.signedCheckpoint(size);
    const failures: string[] = [];
    for (const w of witnesses) {
      const problem = await ask(w, size, text, note);
      if (problem) failures.push(`${w.key.name} (${w.place}): ${problem}`);
    }
    if (failures.length === 0) return { done: true };
    if (job.attempts >= WITNESS_ATTEMPTS) {
      deps.log.warn({ size, failures }, 'the checkpoint stays unwitnessed by these witnesses');
      return { done: true };
    }
    return { retryAt: clock.now().getTime() + backoffMs(job.attempts), reason: failures.join('; ') };
  };
}
