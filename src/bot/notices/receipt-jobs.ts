import type { Api } from 'grammy';
import { languageOf, translate } from '../../i18n/catalogue.ts';
import type { NewJob } from '../../jobs/job.repository.ts';
import type { Job, JobOutcome, JobRun } from '../../jobs/job-runner.ts';
import type { Clock } from '../../shared/clock.ts';
import { sendJobMessage } from '../api/job-message.ts';
import { telegramJobOutcome } from '../api/job-outcome.ts';
import type { BotLogger } from '../bot-logger.ts';
import { AS_HTML, esc, utcMinute } from '../format.ts';
import type { ConsoleGiveaways } from '../giveaway-port.ts';
import type { BotUserService } from '../users/bot-user.service.ts';

export const RECEIPTS_PAGE_JOB = 'bot.receipts_page';
export const RECEIPT_JOB = 'bot.receipt';

/** Entrants enqueued per page job: each page is one short job, so no run outlives its lease. */
const PAGE = 500;

interface PagePayload {
  giveawayId: number;
  publicId: string;
  afterId: number;
}

interface ReceiptPayload {
  giveawayId: number;
  telegramId: number;
  language: string | null;
  languageCode: string | null;
}

/**
 * After the seal, every entrant who started the bot gets their receipt (CONTRACT §11): the seal
 * fans out into page jobs of 500 entrants (each enqueues its receipts and the next page, so the
 * walk resumes after a restart), and each receipt is a job of its own, sent through the
 * throttled Bot API, so 50 000 receipts keep to Telegram's pace.
 */
export function createReceiptJobs(deps: {
  api: Pick<Api, 'sendMessage'>;
  giveaways: Pick<ConsoleGiveaways, 'sealedEntry'>;
  botUsers: Pick<BotUserService, 'startedEntrants'>;
  jobs: { enqueue(job: NewJob): Promise<void>; enqueueMany(list: readonly NewJob[]): Promise<void> };
  /** The pace of bulk sends: receipts are due one gap apart, so other work due meanwhile interleaves. */
  perSecond: number;
  clock: Clock;
  log: BotLogger;
}) {
  const { api, giveaways, botUsers, jobs, clock, log } = deps;
  const gapMs = 1000 / deps.perSecond;
  const now = () => clock.now().getTime();
  const pageJob = (payload: PagePayload, runAt = now()): NewJob => ({
    kind: RECEIPTS_PAGE_JOB,
    key: `receipts:${payload.publicId}:${payload.afterId}`,
    runAt,
    payload,
  });

  async function page(job: Job): Promise<JobOutcome> {
    const { giveawayId, publicId, afterId } = job.payload as PagePayload;
    const entrants = await botUsers.startedEntrants(giveawayId, afterId, PAGE);
    const start = now();
    await jobs.enqueueMany(
      entrants.map((e, i) => ({
        kind: RECEIPT_JOB,
        key: `receipt:${publicId}:${e.telegramId}`,
        runAt: Math.round(start + i * gapMs),
        payload: { giveawayId, telegramId: e.telegramId, language: e.language, languageCode: e.languageCode },
      })),
    );
    if (entrants.length === PAGE) {
      const next = { giveawayId, publicId, afterId: entrants[entrants.length - 1].telegramId };
      await jobs.enqueue(pageJob(next, Math.round(start + PAGE * gapMs)));
    }
    return { done: true };
  }

  async function receipt(job: Job, _signal?: AbortSignal, run?: JobRun): Promise<JobOutcome> {
    const payload = job.payload as ReceiptPayload;
    const entry = await giveaways.sealedEntry(payload.giveawayId, payload.telegramId);
    // Excluded at the seal, or the list is gone: nothing to prove.
    if (!entry) return { done: true };
    const language = languageOf(payload.language, payload.languageCode ?? undefined);
    const text = translate(language, 'receipt-after-seal', {
      title: esc(entry.title),
      index: entry.index + 1,
      count: entry.count,
      url: esc(entry.receiptUrl),
      round: String(entry.round),
      due: utcMinute(entry.roundAt),
    });
    const fields = { public_id: entry.publicId, telegram_id: payload.telegramId };
    try {
      await sendJobMessage({ job, run, log, what: 'receipt', fields }, (signal) =>
        api.sendMessage(payload.telegramId, text, AS_HTML, signal),
      );
      return { done: true };
    } catch (error) {
      return telegramJobOutcome(error, job, { clock, log }, 'receipt', fields);
    }
  }

  return {
    handlers: { [RECEIPTS_PAGE_JOB]: page, [RECEIPT_JOB]: receipt },
    start: (giveawayId: number, publicId: string) =>
      jobs.enqueue(pageJob({ giveawayId, publicId, afterId: 0 })),
  };
}
