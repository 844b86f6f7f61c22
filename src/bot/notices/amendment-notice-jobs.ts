import type { NewJob } from '../../jobs/job.repository.ts';
import type { Job, JobOutcome, JobRun } from '../../jobs/job-runner.ts';
import { AMENDED_JOB, type AmendedJobPayload } from '../bot-jobs.ts';
import { esc } from '../format.ts';
import type { AmendedEvent } from '../giveaway-port.ts';
import type { BotUserService } from '../users/bot-user.service.ts';
import { sendWinnerMessage, type WinnerMessageDeps } from './winner-message.ts';

/** The new winner's message after a replacement: a job of its own, sent and retried on its own. */
export const SUBSTITUTE_NOTICE_JOB = 'bot.substitute_notice';

/**
 * The bot's side of a replacement's promise, made in the amendment's transaction (`bot.amended`):
 * the post in the giveaway's channel, when it has one, and a notice to the new winner, when they
 * have started the bot — each a job with a key of its own (the amendment's id), so a restart at
 * any point sends each once (Telegram has no idempotency key: only a process killed between
 * handing one to Telegram and the job's commit leaves it to be sent again, and that is logged).
 */
export function createAmendmentNoticeJobs(
  deps: WinnerMessageDeps & {
    botUsers: Pick<BotUserService, 'startedAmong'>;
    jobs: { enqueue(job: NewJob): Promise<void> };
    /** Promises the channel post, when the giveaway has one. */
    amendedPost(event: AmendedEvent, at: number): Promise<void>;
  },
) {
  const { botUsers, jobs, clock, log } = deps;
  const now = () => clock.now().getTime();

  async function fanOut(job: Job): Promise<JobOutcome> {
    const event = job.payload as AmendedJobPayload;
    await deps.amendedPost(event, now());
    const started = await botUsers.startedAmong([event.substitute.telegram_id]);
    if (started.size > 0) {
      await jobs.enqueue({
        kind: SUBSTITUTE_NOTICE_JOB,
        key: `substitute:${event.amendmentId}`,
        runAt: now(),
        payload: event,
      });
    }
    log.info(
      { public_id: event.publicId, amendment_id: event.amendmentId, notice: started.size > 0 },
      'replacement post and notice queued',
    );
    return { done: true };
  }

  async function notify(job: Job, _signal?: AbortSignal, run?: JobRun): Promise<JobOutcome> {
    const event = job.payload as AmendedEvent;
    const winner = event.substitute;
    const fields = { amendment_id: event.amendmentId, telegram_id: winner.telegram_id };
    return sendWinnerMessage(
      deps,
      { job, run, what: 'new winner notice', fields },
      { ...event, telegramId: winner.telegram_id },
      (t) =>
        t('substitute-notice', {
          position: event.position,
          title: esc(event.title),
          reason: t(`reason-${event.reason}`),
          url: esc(event.verifyUrl),
        }),
    );
  }

  return { [AMENDED_JOB]: fanOut, [SUBSTITUTE_NOTICE_JOB]: notify };
}
