import { Composer, InlineKeyboard } from 'grammy';
import type { AccountService } from '../../accounts/account.service.ts';
import { hasBusinessAccess } from '../../accounts/plans.ts';
import { AMENDMENT_REASONS, type AmendmentReason } from '../../proof/amendments.ts';
import type { Clock } from '../../shared/clock.ts';
import { type AppError, isAppError } from '../../shared/errors.ts';
import type { BotLogger } from '../bot-logger.ts';
import { callbackData } from '../callback-data.ts';
import type { BotContext } from '../context.ts';
import { displayName, esc, utcMinute } from '../format.ts';
import type { ConsoleGiveaways } from '../giveaway-port.ts';
import { safeAnswer, safeEdit } from '../safe-reply.ts';

/** A giveaway's winners as they stand, from its /giveaways button. */
export const manageData = callbackData('gm', ['id']);
/** Replace the winner at a position: `index` is the winner the buttons were shown for. */
const replaceData = callbackData('rp', ['id', 'position', 'index']);
/** The reason chosen: one letter per reason keeps the data within Telegram's 64 bytes. */
const reasonData = callbackData('rr', ['id', 'position', 'index', 'reason']);
const REASON_CODE = Object.fromEntries(AMENDMENT_REASONS.map((r) => [r, r[0]])) as Record<
  AmendmentReason,
  string
>;
const REASON_OF = Object.fromEntries(AMENDMENT_REASONS.map((r) => [r[0], r])) as Record<
  string,
  AmendmentReason
>;

type Standing = Awaited<ReturnType<ConsoleGiveaways['standingOf']>>;

/** The refusal a replacement may meet, as the owner is told. */
function refusalKey(error: AppError, reason: AmendmentReason): string | undefined {
  switch (error.code) {
    case 'no_reserves_left':
      return 'replace-no-reserves';
    case 'condition_met':
      return reason === 'left_channel' ? 'replace-still-member' : 'replace-not-unclaimed';
    case 'position_replaced':
      return 'replace-changed';
    case 'not_drawn':
      return 'replace-not-drawn';
    case 'telegram_unavailable':
      return 'replace-telegram-down';
    case 'invalid_parameter':
      return 'replace-no-channel';
    case 'forbidden':
    case 'not_found':
      return 'draw-not-yours';
    default:
      return undefined;
  }
}

/**
 * `/giveaways` → a drawn giveaway → Replace (CONTRACT §14): the owner sees the winners as they
 * stand, picks one to replace and the reason from buttons. There is no choice of who comes in:
 * the service takes the next unused reserve, signs the amendment and makes it public. Buttons
 * carry the winner they were shown for, so a press after another replacement changes nothing.
 */
export function replaceComposer(deps: {
  accounts: Pick<AccountService, 'findByTelegramId'>;
  giveaways: Pick<ConsoleGiveaways, 'standingOf' | 'replaceFromConsole'>;
  clock: Clock;
  log: BotLogger;
  wake?: () => void;
}): Composer<BotContext> {
  const { accounts, giveaways, log } = deps;
  const composer = new Composer<BotContext>();

  async function ownerAccount(ctx: BotContext) {
    const account = await accounts.findByTelegramId(ctx.from!.id);
    return account && hasBusinessAccess(account.plan) ? account : undefined;
  }

  function winnerLine(ctx: BotContext, w: Standing['standing']['winners'][number], now: number): string {
    const state =
      w.claimedAt !== null
        ? ctx.t('manage-claimed', { at: utcMinute(w.claimedAt) })
        : w.deadline === null
          ? ctx.t('manage-no-deadline')
          : w.deadline > now
            ? ctx.t('manage-claim-until', { until: utcMinute(w.deadline) })
            : ctx.t('manage-claim-over', { until: utcMinute(w.deadline) });
    return ctx.t('manage-winner', { position: w.position, name: displayName(w), state });
  }

  async function showStanding(ctx: BotContext, publicId: string, lead?: string) {
    const account = await ownerAccount(ctx);
    if (!account) return safeEdit(ctx, log, ctx.t('draw-not-yours'));
    let found: Standing;
    try {
      found = await giveaways.standingOf(account.id, publicId);
    } catch (error) {
      if (!isAppError(error)) throw error;
      return safeEdit(ctx, log, ctx.t(error.code === 'not_drawn' ? 'replace-not-drawn' : 'draw-not-yours'));
    }
    const { standing } = found;
    const now = deps.clock.now().getTime();
    const lines = [
      ...(lead ? [lead, ''] : []),
      ctx.t('manage-head', { title: esc(found.title) }),
      '',
      ...standing.winners.map((w) => winnerLine(ctx, w, now)),
      '',
      ctx.t('manage-reserves', { count: standing.reservesLeft }),
    ];
    const keyboard = new InlineKeyboard();
    if (standing.reservesLeft > 0) {
      standing.winners.forEach((w, i) => {
        if (i > 0 && i % 4 === 0) keyboard.row();
        const data = { id: publicId, position: String(w.position), index: String(w.index) };
        keyboard.text(ctx.t('manage-button-replace', { position: w.position }), replaceData.pack(data));
      });
    }
    await safeEdit(ctx, log, lines.join('\n'), keyboard);
  }

  composer.callbackQuery(manageData.filter, async (ctx) => {
    await safeAnswer(ctx, log);
    await showStanding(ctx, manageData.unpack(ctx.callbackQuery.data)!.id);
  });

  composer.callbackQuery(replaceData.filter, async (ctx) => {
    const data = replaceData.unpack(ctx.callbackQuery.data)!;
    await safeAnswer(ctx, log);
    const keyboard = new InlineKeyboard();
    for (const reason of AMENDMENT_REASONS) {
      keyboard
        .text(ctx.t(`reason-${reason}`), reasonData.pack({ ...data, reason: REASON_CODE[reason] }))
        .row();
    }
    keyboard.text(ctx.t('replace-button-back'), manageData.pack({ id: data.id }));
    await safeEdit(ctx, log, ctx.t('replace-ask', { position: Number(data.position) }), keyboard);
  });

  composer.callbackQuery(reasonData.filter, async (ctx) => {
    const data = reasonData.unpack(ctx.callbackQuery.data)!;
    const reason = REASON_OF[data.reason];
    await safeAnswer(ctx, log);
    const account = await ownerAccount(ctx);
    if (!reason || !account) return safeEdit(ctx, log, ctx.t('draw-not-yours'));
    try {
      const done = await giveaways.replaceFromConsole(
        account.id,
        data.id,
        Number(data.position),
        reason,
        Number(data.index),
      );
      deps.wake?.();
      const position = done.amendment.position;
      const lead = ctx.t('replace-done', {
        position,
        name: displayName(done.amended_winners[position - 1]),
        reserve: done.amendment.by.reserve_position,
        id: done.amendment.amendment_id,
      });
      log.info(
        { telegram_id: ctx.from.id, public_id: data.id, amendment_id: done.amendment.amendment_id },
        'winner replaced in the bot',
      );
      await showStanding(ctx, data.id, lead);
    } catch (error) {
      const key = isAppError(error) ? refusalKey(error, reason) : undefined;
      if (!key) throw error;
      await showStanding(ctx, data.id, ctx.t(key));
    }
  });

  return composer;
}
