import { LeaseLostError } from '../../jobs/job-leases.ts';
import type { Job, JobOutcome } from '../../jobs/job-runner.ts';
import type { Clock } from '../../shared/clock.ts';
import type { BotLogger } from '../bot-logger.ts';
import { classifyTelegramError } from '../telegram-errors.ts';

/** Tries of one message before it is given up (429 waits are not counted against it). */
export const MAX_ATTEMPTS = 5;

/**
 * What a background message's job does when its Bot API call failed: a 429 makes it due again
 * after `retry_after` (kept in the jobs table, not in a timer), a chat that blocked or removed
 * the bot is recorded and skipped, a refusal is recorded and given up, and anything else is
 * thrown for the runner's backoff until the last attempt.
 */
export function telegramJobOutcome(
  error: unknown,
  job: Job,
  deps: { clock: Clock; log: BotLogger },
  what: string,
  fields: Record<string, unknown>,
): JobOutcome {
  // The run's claim is gone: nothing to decide here, the runner lets the job go uncounted.
  if (error instanceof LeaseLostError) throw error;
  const failure = classifyTelegramError(error);
  const logged = {
    ...fields,
    attempt: job.attempts,
    error_code: failure.error_code,
    description: failure.description,
  };
  if (failure.kind === 'rate_limited') {
    deps.log.info(
      { ...logged, retry_after: failure.retryAfterSeconds },
      `${what} rate limited; due again later`,
    );
    return { retryAt: deps.clock.now().getTime() + failure.retryAfterSeconds * 1000, reason: 'Telegram 429' };
  }
  if (failure.kind === 'blocked') {
    deps.log.warn(logged, `${what} skipped: the bot was blocked or removed`);
    return { done: true };
  }
  if (failure.kind === 'rejected' || job.attempts >= MAX_ATTEMPTS) {
    deps.log.error(logged, `${what} not delivered`);
    return { done: true };
  }
  throw error;
}
