import type { NewJob } from '../../jobs/job.repository.ts';
import type { Job, JobOutcome, JobRun } from '../../jobs/job-runner.ts';
import { WINNERS_JOB, type WinnersJobPayload } from '../bot-jobs.ts';
import { esc } from '../format.ts';
import type { DrawnWinner } from '../giveaway-port.ts';
import type { BotUserService } from '../users/bot-user.service.ts';
import { sendWinnerMessage, type WinnerMessageDeps } from './winner-message.ts';

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
export function createWinnerNoticeJobs(
  deps: WinnerMessageDeps & {
    botUsers: Pick<BotUserService, 'startedAmong'>;
    jobs: { enqueue(job: NewJob): Promise<void> };
    /** Promises the results post, when the giveaway has a channel post. */
    resultsPost(
      publicId: string,
      at: number,
      results: { verifyUrl: string; winners: DrawnWinner[] },
    ): Promise<void>;
  },
) {
  const { botUsers, jobs, clock, log } = deps;
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
    const fields = { certificate_id: event.certificateId, telegram_id: winner.telegram_id };
    return sendWinnerMessage(
      deps,
      { job, run, what: 'winner notice', fields },
      { ...event, telegramId: winner.telegram_id, position: winner.position },
      (t) =>
        t('winner-notice', { position: winner.position, title: esc(event.title), url: esc(event.verifyUrl) }),
    );
  }

  return { [WINNERS_JOB]: fanOut, [WINNER_NOTICE_JOB]: notify };
}
