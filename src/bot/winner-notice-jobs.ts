import type { Api } from 'grammy';
import type { Clock } from '../clock.ts';
import { WINNERS_JOB, type WinnersJobPayload } from '../giveaways/giveaway-events.ts';
import type { NewJob } from '../jobs/job.repository.ts';
import type { Job, JobOutcome } from '../jobs/job-runner.ts';
import type { BotLogger } from './bot-logger.ts';
import type { BotUserService } from './bot-user.service.ts';
import type { DrawnWinner } from './giveaway-port.ts';
import * as text from './messages.ts';
import { classifyTelegramError } from './telegram-errors.ts';

/** One winner's message: a job of its own, so each is sent (and retried) on its own. */
export const WINNER_NOTICE_JOB = 'bot.winner_notice';

interface NoticePayload {
  event: WinnersJobPayload;
  winner: DrawnWinner;
}

/** Tries per winner before the message is given up (429 waits are not counted against it). */
const MAX_ATTEMPTS = 5;

/**
 * The bot's side of the winners' promise made in each draw's transaction (`winners.notify`): the
 * draw's job becomes one job per winner who has started the bot, and each of those sends one
 * message. A 429 makes the job due again after Telegram's `retry_after`; a winner who blocked
 * the bot is logged and skipped. Jobs run at least once: a process killed between Telegram's
 * answer and the job's completion sends that one message again, never loses it.
 */
export function createWinnerNoticeJobs(deps: {
  api: Pick<Api, 'sendMessage'>;
  botUsers: Pick<BotUserService, 'startedAmong'>;
  jobs: { enqueue(job: NewJob): Promise<void> };
  clock: Clock;
  log: BotLogger;
}) {
  const { api, botUsers, jobs, clock, log } = deps;
  const now = () => clock.now().getTime();

  async function fanOut(job: Job): Promise<JobOutcome> {
    const event = job.payload as WinnersJobPayload;
    const started = await botUsers.startedAmong(event.winners.map((w) => w.telegram_id));
    for (const winner of event.winners.filter((w) => started.has(w.telegram_id))) {
      const payload: NoticePayload = { event, winner };
      await jobs.enqueue({
        kind: WINNER_NOTICE_JOB,
        key: `winner:${event.certificateId}:${winner.telegram_id}`,
        runAt: now(),
        payload,
      });
    }
    log.info(
      {
        certificate_id: event.certificateId,
        notices: started.size,
        not_started: event.winners.length - started.size,
      },
      'winner notices queued',
    );
    return { done: true };
  }

  async function notify(job: Job): Promise<JobOutcome> {
    const { event, winner } = job.payload as NoticePayload;
    const where = {
      certificate_id: event.certificateId,
      telegram_id: winner.telegram_id,
      attempt: job.attempts,
    };
    try {
      await api.sendMessage(winner.telegram_id, text.winnerNotice(event, winner), { parse_mode: 'HTML' });
      return { done: true };
    } catch (error) {
      const failure = classifyTelegramError(error);
      const fields = { ...where, error_code: failure.error_code, description: failure.description };
      if (failure.kind === 'rate_limited') {
        log.info(
          { ...fields, retry_after: failure.retryAfterSeconds },
          'winner notice rate limited; due again later',
        );
        return { retryAt: now() + failure.retryAfterSeconds * 1000, reason: 'Telegram 429' };
      }
      if (failure.kind === 'blocked') {
        log.warn(fields, 'winner notice skipped: the user blocked the bot');
        return { done: true };
      }
      if (failure.kind === 'rejected' || job.attempts >= MAX_ATTEMPTS) {
        log.error(fields, 'winner notice not delivered');
        return { done: true };
      }
      throw error;
    }
  }

  return { [WINNERS_JOB]: fanOut, [WINNER_NOTICE_JOB]: notify };
}
