import { Composer } from 'grammy';
import type { AccountService } from '../../accounts/account.service.ts';
import { isAppError } from '../../shared/errors.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { BotContext } from '../context.ts';
import { esc } from '../format.ts';
import type { BotGiveaways } from '../giveaway-port.ts';
import { joinKeyboard } from '../join/join-link.ts';
import { safeReply } from '../safe-reply.ts';

export interface PostDeps {
  accounts: Pick<AccountService, 'findByTelegramId'>;
  giveaways: Pick<BotGiveaways, 'get'>;
  log: BotLogger;
}

/** A public channel by @username, or any chat by its numeric id (private channels have no username). */
const CHANNEL = /^(@[A-Za-z][A-Za-z0-9_]{3,31}|-100\d{5,15})$/;

/**
 * `/post <giveaway id> <@channel>`: the owner of a giveaway made through the API has the bot
 * post it to a channel with a Join button. Telegram itself checks that the bot may post there.
 */
export function postComposer({ accounts, giveaways, log }: PostDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.chatType('private').command('post', async (ctx) => {
    const [publicId, channel, extra] = ctx.match.trim().split(/\s+/);
    if (!publicId || !channel || extra !== undefined || !CHANNEL.test(channel)) {
      await safeReply(ctx, log, ctx.t('post-usage'));
      return;
    }
    const account = await accounts.findByTelegramId(ctx.from.id);
    const giveaway = account ? await ownedGiveaway(account.id, publicId) : undefined;
    if (!giveaway) {
      await safeReply(ctx, log, ctx.t('post-not-yours'));
      return;
    }
    if (giveaway.status !== 'active') {
      await safeReply(ctx, log, ctx.t('giveaway-completed'));
      return;
    }
    const text = [
      `<b>${esc(giveaway.title)}</b>`,
      '',
      ctx.t('post-winners', { winners: giveaway.winners_count }),
      ctx.t('post-press-join'),
    ].join('\n');
    try {
      await ctx.api.sendMessage(channel, text, {
        parse_mode: 'HTML',
        reply_markup: joinKeyboard(ctx.me.username, giveaway.public_id, ctx.t('post-button-join')),
      });
    } catch (error) {
      log.warn({ telegram_id: ctx.from.id, channel, err: (error as Error).message }, 'channel post refused');
      await safeReply(ctx, log, ctx.t('post-failed', { channel: esc(channel) }));
      return;
    }
    log.info({ telegram_id: ctx.from.id, channel, public_id: giveaway.public_id }, 'giveaway posted');
    await safeReply(ctx, log, ctx.t('posted', { channel: esc(channel) }));
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
