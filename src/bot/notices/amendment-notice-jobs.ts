import type { Api } from 'grammy';
import { languageOf, translatorFor } from '../../i18n/catalogue.ts';
import type { NewJob } from '../../jobs/job.repository.ts';
import type { Job, JobOutcome, JobRun } from '../../jobs/job-runner.ts';
import type { Clock } from '../../shared/clock.ts';
import { sendJobMessage } from '../api/job-message.ts';
import { telegramJobOutcome } from '../api/job-outcome.ts';
import { AMENDED_JOB, type AmendedJobPayload } from '../bot-jobs.ts';
import type { BotLogger } from '../bot-logger.ts';
import { esc } from '../format.ts';
import type { AmendedEvent } from '../giveaway-port.ts';
import type { BotUserService } from '../users/bot-user.service.ts';
import { withClaim } from './claim-button.ts';

/** The new winner's message after a replacement: a job of its own, sent and retried on its own. */
export const SUBSTITUTE_NOTICE_JOB = 'bot.substitute_notice';

/**
 * The bot's side of a replacement's promise, made in the amendment's transaction (`bot.amended`):
 * the post in the giveaway's channel, when it has one, and a notice to the new winner, when they
 * have started the bot — each a job with a key of its own (the amendment's id), so a restart at
 * any point sends each once (Telegram has no idempotency key: only a process killed between
 * handing one to Telegram and the job's commit leaves it to be sent again, and that is logged).
 */
export function createAmendmentNoticeJobs(deps: {
  api: Pick<Api, 'sendMessage'>;
  botUsers: Pick<BotUserService, 'startedAmong' | 'languageOf'>;
  jobs: { enqueue(job: NewJob): Promise<void> };
  /** Promises the channel post, when the giveaway has one. */
  amendedPost(event: AmendedEvent, at: number): Promise<void>;
  clock: Clock;
  log: BotLogger;
  /** The Mini App's address, when it is served: the notice then offers it. */
  appUrl?: string | undefined;
}) {
  const { api, botUsers, jobs, clock, log } = deps;
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
    const stored = await botUsers.languageOf(winner.telegram_id);
    const t = translatorFor(languageOf(stored.language, stored.language_code ?? undefined));
    const notice = t('substitute-notice', {
      position: event.position,
      title: esc(event.title),
      reason: t(`reason-${event.reason}`),
      url: esc(event.verifyUrl),
    });
    const { text, ...markup } = withClaim(t, notice, event, deps.appUrl);
    const fields = { amendment_id: event.amendmentId, telegram_id: winner.telegram_id };
    try {
      await sendJobMessage({ job, run, log, what: 'new winner notice', fields }, (signal) =>
        api.sendMessage(winner.telegram_id, text, { parse_mode: 'HTML', ...markup }, signal),
      );
      return { done: true };
    } catch (error) {
      return telegramJobOutcome(error, job, { clock, log }, 'new winner notice', fields);
    }
  }

  return { [AMENDED_JOB]: fanOut, [SUBSTITUTE_NOTICE_JOB]: notify };
}
