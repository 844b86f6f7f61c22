import { Composer, type Context } from 'grammy';
import type { AccountService } from '../accounts/account.service.ts';
import { isAppError } from '../errors.ts';
import type { BotLogger } from './bot-logger.ts';
import type { BotGiveaways } from './giveaway-port.ts';
import { joinKeyboard } from './join-link.ts';
import * as text from './messages.ts';
import { safeReply } from './safe-reply.ts';

export interface PostDeps {
  accounts: Pick<AccountService, 'findByTelegramId'>;
  giveaways: Pick<BotGiveaways, 'get'>;
  log: BotLogger;
}

/** A public channel by @username, or any chat by its numeric id (private channels have no username). */
const CHANNEL = /^(@[A-Za-z][A-Za-z0-9_]{3,31}|-100\d{5,15})$/;

/**
 * `/post <giveaway id> <@channel>`: the giveaway's owner has the bot post it to a channel with a
 * Join button. Telegram itself checks that the bot may post there.
 */
export function postComposer({ accounts, giveaways, log }: PostDeps): Composer<Context> {
  const composer = new Composer<Context>();

  composer.chatType('private').command('post', async (ctx) => {
    const [publicId, channel, extra] = ctx.match.trim().split(/\s+/);
    if (!publicId || !channel || extra !== undefined || !CHANNEL.test(channel)) {
      await safeReply(ctx, log, text.postUsage);
      return;
    }
    const account = await accounts.findByTelegramId(ctx.from.id);
    const giveaway = account ? await ownedGiveaway(account.id, publicId) : undefined;
    if (!giveaway) {
      await safeReply(ctx, log, text.postNotYours);
      return;
    }
    if (giveaway.status !== 'active') {
      await safeReply(ctx, log, text.giveawayCompleted);
      return;
    }
    try {
      await ctx.api.sendMessage(channel, text.channelPost(giveaway), {
        parse_mode: 'HTML',
        reply_markup: joinKeyboard(giveaway.public_id),
      });
    } catch (error) {
      log.warn({ telegram_id: ctx.from.id, channel, err: (error as Error).message }, 'channel post refused');
      await safeReply(ctx, log, text.postFailed(channel));
      return;
    }
    log.info({ telegram_id: ctx.from.id, channel, public_id: giveaway.public_id }, 'giveaway posted');
    await safeReply(ctx, log, text.posted(channel));
  });

  async function ownedGiveaway(accountId: string, publicId: string) {
    try {
      return await giveaways.get(accountId, publicId);
    } catch (error) {
      if (isAppError(error) && (error.code === 'not_found' || error.code === 'forbidden')) return undefined;
      throw error;
    }
  }

  return composer;
}
