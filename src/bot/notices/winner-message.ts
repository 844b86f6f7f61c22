import type { Api } from 'grammy';
import { languageOf, type Translate, translatorFor } from '../../i18n/catalogue.ts';
import type { Job, JobOutcome, JobRun } from '../../jobs/job-runner.ts';
import type { Clock } from '../../shared/clock.ts';
import { sendJobMessage } from '../api/job-message.ts';
import { telegramJobOutcome } from '../api/job-outcome.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { BotUserService } from '../users/bot-user.service.ts';
import { withClaim } from './claim-button.ts';

export interface WinnerMessageDeps {
  api: Pick<Api, 'sendMessage'>;
  botUsers: Pick<BotUserService, 'languageOf'>;
  clock: Clock;
  log: BotLogger;
  /** The Mini App's address, when it is served: the notice then offers it. */
  appUrl?: string | undefined;
}

/**
 * One message to one winner (drawn, or a substitute): in their language, with the claim line and
 * buttons, sent under its job's claim; Telegram's refusals become the job's outcome.
 */
export async function sendWinnerMessage(
  deps: WinnerMessageDeps,
  sending: { job: Job; run: JobRun | undefined; what: string; fields: Record<string, unknown> },
  to: { telegramId: number; publicId: string; position: number; claimUntil?: string | null | undefined },
  notice: (t: Translate) => string,
): Promise<JobOutcome> {
  const { api, botUsers, clock, log } = deps;
  const { job, run, what, fields } = sending;
  const stored = await botUsers.languageOf(to.telegramId);
  const t = translatorFor(languageOf(stored.language, stored.language_code ?? undefined));
  const { text, ...markup } = withClaim(t, notice(t), to, deps.appUrl);
  try {
    await sendJobMessage({ job, run, log, what, fields }, (signal) =>
      api.sendMessage(to.telegramId, text, { parse_mode: 'HTML', ...markup }, signal),
    );
    return { done: true };
  } catch (error) {
    return telegramJobOutcome(error, job, { clock, log }, what, fields);
  }
}
