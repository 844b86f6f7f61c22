import type { Job, JobRun } from '../../jobs/job-runner.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { GrammySignal } from '../telegram-errors.ts';

/**
 * A job's message is announced to its run (JobRun.beginEffect) when it leaves: after its pacing
 * wait (throttle.ts), which for a busy channel lasts seconds, and right before the HTTP request.
 * Announced before the wait instead, a process killed while waiting (nothing sent) would look to
 * the next claim like one killed after sending. grammY hands every transformer the call's signal
 * unchanged, so the call carries its announcement there.
 */
const announcements = new WeakMap<AbortSignal, () => Promise<void>>();

/** The pacing transformer calls this as each call leaves; a call not made for a job has none. */
export async function announceLeaving(signal: unknown): Promise<void> {
  const announce = signal instanceof AbortSignal ? announcements.get(signal) : undefined;
  if (!announce) return;
  announcements.delete(signal as AbortSignal);
  await announce();
}

export interface JobMessage {
  job: Job;
  /** Absent when a handler is called directly (a test): the message is then simply sent. */
  run: JobRun | undefined;
  log: BotLogger;
  /** What the message is, for the log ("receipt", "channel post"). */
  what: string;
  fields: Record<string, unknown>;
}

/**
 * Makes the one message of a job's run through the paced Bot API: `call` gets the signal to pass.
 *
 * Telegram has no idempotency key, so what the store can promise is this: a run whose claim is
 * gone (another process has the job) sends nothing; and a message goes out twice only when a
 * process died between announcing it and the job's commit — a window of one Bot API call and one
 * statement — or the call failed without Telegram's answer, in which case the run that sends it
 * again says so in the log, naming the job.
 */
export async function sendJobMessage<T>(
  message: JobMessage,
  call: (signal: GrammySignal | undefined) => Promise<T>,
): Promise<T> {
  const { job, run, log } = message;
  if (!run) return call(undefined);
  // One signal per call, so only this call announces itself, and a lost lease still stops it.
  const signal = AbortSignal.any([run.signal]);
  announcements.set(signal, async () => {
    const { repeated } = await run.beginEffect();
    if (repeated) {
      log.warn(
        { ...message.fields, job: job.id, key: job.key, attempt: job.attempts },
        `${message.what} sent again: an earlier attempt stopped after it may have reached Telegram`,
      );
    }
  });
  try {
    const answer = await call(signal as GrammySignal);
    if (announcements.has(signal)) {
      log.error(
        { ...message.fields, key: job.key },
        `${message.what} sent unannounced: the Bot API of background jobs must be paced (throttle.ts)`,
      );
    }
    return answer;
  } catch (error) {
    // Stopped because the claim is gone: not the message's failure, and not to be counted as one.
    if (run.signal.aborted) throw run.signal.reason;
    throw error;
  } finally {
    announcements.delete(signal);
  }
}
