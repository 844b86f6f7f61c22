import { Composer, type Context } from 'grammy';
import type { AccountService } from '../accounts/account.service.ts';
import { isAppError } from '../errors.ts';
import { stripControlCharacters } from '../text-rules.ts';
import type { BotLogger } from './bot-logger.ts';
import type { BotGiveaways, JoiningParticipant, JoinResult } from './giveaway-port.ts';
import { JOIN_CALLBACK, parseJoinPayload } from './join-link.ts';
import * as text from './messages.ts';
import { safeAnswer, safeReply } from './safe-reply.ts';

export interface JoinDeps {
  accounts: Pick<AccountService, 'ensureTelegramAccount'>;
  giveaways: BotGiveaways;
  log: BotLogger;
}

type Outcome = { ok: true; result: JoinResult } | { ok: false; message: string };

/** `/start` (account), `/start g_<id>` (deep-link join) and the channel post's Join button. */
export function joinComposer({ accounts, giveaways, log }: JoinDeps): Composer<Context> {
  const composer = new Composer<Context>();

  // Each step's result is stored before the reply is attempted; a reply that fails is only logged.
  async function join(publicId: string, from: NonNullable<Context['from']>): Promise<Outcome> {
    const participant: JoiningParticipant = { telegram_id: from.id };
    // The API refuses control characters in names; from a Telegram name they are dropped instead,
    // since the entrant cannot fix their name for us.
    const username = stripControlCharacters(from.username ?? '');
    const firstName = stripControlCharacters(from.first_name ?? '');
    if (username) participant.username = username;
    if (firstName) participant.first_name = firstName;
    try {
      const result = await giveaways.join(publicId, participant);
      log.info(
        { telegram_id: from.id, public_id: publicId, status: result.status, entry: result.entryNumber },
        'giveaway join',
      );
      return { ok: true, result };
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found')
        return { ok: false, message: text.giveawayNotFound };
      if (isAppError(error) && error.code === 'giveaway_completed') {
        return { ok: false, message: text.giveawayCompleted };
      }
      if (isAppError(error) && error.code === 'giveaway_sealed')
        return { ok: false, message: text.giveawaySealed };
      throw error;
    }
  }

  const direct = composer.chatType('private');

  direct.command('start', async (ctx) => {
    const publicId = parseJoinPayload(ctx.match);
    if (publicId) {
      const outcome = await join(publicId, ctx.from);
      await safeReply(ctx, log, outcome.ok ? text.joined(outcome.result) : outcome.message);
      return;
    }
    const { created } = await accounts.ensureTelegramAccount(ctx.from.id);
    if (created) log.info({ telegram_id: ctx.from.id }, 'account created from Telegram');
    await safeReply(ctx, log, text.welcome(created, ctx.from.first_name));
  });

  composer.callbackQuery(JOIN_CALLBACK, async (ctx) => {
    const outcome = await join(ctx.match[1], ctx.from);
    await safeAnswer(ctx, log, outcome.ok ? text.joinedPopup(outcome.result) : outcome.message, true);
  });

  return composer;
}
