import type { Api } from 'grammy';
import { languageOf, translatorFor } from '../../i18n/catalogue.ts';
import type { NewJob } from '../../jobs/job.repository.ts';
import type { Job, JobOutcome, JobRun } from '../../jobs/job-runner.ts';
import type { Clock } from '../../shared/clock.ts';
import { sendJobMessage } from '../api/job-message.ts';
import { telegramJobOutcome } from '../api/job-outcome.ts';
import { WINNERS_JOB, type WinnersJobPayload } from '../bot-jobs.ts';
import type { BotLogger } from '../bot-logger.ts';
import { esc } from '../format.ts';
import type { DrawnWinner } from '../giveaway-port.ts';
import type { BotUserService } from '../users/bot-user.service.ts';
import { withClaim } from './claim-button.ts';

/** One winner's message: a job of its own, so each is sent (and retried) on its own. */
export const WINNER_NOTICE_JOB = 'bot.winner_notice';

interface NoticePayload {
  event: WinnersJobPayload;
  winner: DrawnWinner;
}

/**
 * The bot's side of the winners' promise made in each draw's transaction (`winners.notify`): the
 * draw's job becomes one job per winner who has started the bot, each sending one message in
 * the winner's language, and, when the giveaway has a channel post, the results post. Jobs run
 * at least once: a process killed between handing a notice to Telegram and the job's completion
 * leaves it to be sent again, and that repeat is logged (job-message.ts); none is ever lost.
 */
export function createWinnerNoticeJobs(deps: {
  api: Pick<Api, 'sendMessage'>;
  botUsers: Pick<BotUserService, 'startedAmong' | 'languageOf'>;
  jobs: { enqueue(job: NewJob): Promise<void> };
  /** Promises the results post, when the giveaway has a channel post. */
  resultsPost(
    publicId: string,
    at: number,
    results: { verifyUrl: string; winners: DrawnWinner[] },
  ): Promise<void>;
  clock: Clock;
  log: BotLogger;
  /** The Mini App's address, when it is served: the notice then offers it. */
  appUrl?: string | undefined;
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
    await deps.resultsPost(event.publicId, now(), { verifyUrl: event.verifyUrl, winners: event.winners });
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

  async function notify(job: Job, _signal?: AbortSignal, run?: JobRun): Promise<JobOutcome> {
    const { event, winner } = job.payload as NoticePayload;
    const stored = await botUsers.languageOf(winner.telegram_id);
    const t = translatorFor(languageOf(stored.language, stored.language_code ?? undefined));
    const notice = t('winner-notice', {
      position: winner.position,
      title: esc(event.title),
      url: esc(event.verifyUrl),
    });
    const { text, ...markup } = withClaim(t, notice, { ...event, position: winner.position }, deps.appUrl);
    const fields = { certificate_id: event.certificateId, telegram_id: winner.telegram_id };
    try {
      await sendJobMessage({ job, run, log, what: 'winner notice', fields }, (signal) =>
        api.sendMessage(winner.telegram_id, text, { parse_mode: 'HTML', ...markup }, signal),
      );
      return { done: true };
    } catch (error) {
      return telegramJobOutcome(error, job, { clock, log }, 'winner notice', fields);
    }
  }

  return { [WINNERS_JOB]: fanOut, [WINNER_NOTICE_JOB]: notify };
}
