import { Composer } from 'grammy';
import { isAppError } from '../../shared/errors.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { BotContext } from '../context.ts';
import { utcMinute } from '../format.ts';
import type { ConsoleGiveaways } from '../giveaway-port.ts';
import { safeAnswer, safeReply } from '../safe-reply.ts';
import { claimData } from './claim-button.ts';

/** Why a claim was refused, as the winner is told. */
const REFUSALS: Record<string, string> = {
  claim_expired: 'claim-expired',
  forbidden: 'claim-not-yours',
  position_replaced: 'claim-not-yours',
  not_found: 'claim-not-yours',
  not_drawn: 'claim-not-yours',
};

/**
 * The Claim button of a winner's notice (CONTRACT §14): the winner claims the prize themselves,
 * before their deadline. The service checks that the one pressing is the winner at that position
 * now; a claim cancels the automatic replacement.
 */
export function claimComposer(deps: {
  giveaways: Pick<ConsoleGiveaways, 'claimAsWinner'>;
  log: BotLogger;
}): Composer<BotContext> {
  const { giveaways, log } = deps;
  const composer = new Composer<BotContext>();

  composer.callbackQuery(claimData.filter, async (ctx) => {
    const data = claimData.unpack(ctx.callbackQuery.data)!;
    try {
      const claim = await giveaways.claimAsWinner(data.id, Number(data.position), ctx.from.id);
      await safeAnswer(ctx, log, ctx.t('claim-done-popup'));
      await safeReply(
        ctx,
        log,
        ctx.t('claim-done', { position: claim.position, at: utcMinute(claim.claimed_at) }),
      );
      log.info(
        { telegram_id: ctx.from.id, public_id: data.id, position: claim.position },
        'prize claimed in the bot',
      );
    } catch (error) {
      const key = isAppError(error) ? REFUSALS[error.code] : undefined;
      if (!key) throw error;
      await safeAnswer(ctx, log, ctx.t(key), true);
    }
  });

  return composer;
}
