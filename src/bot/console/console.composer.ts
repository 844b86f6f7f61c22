import { Composer, InlineKeyboard } from 'grammy';
import type { AccountService } from '../../accounts/account.service.ts';
import { hasBusinessAccess } from '../../accounts/plans.ts';
import { verifyUrlOf } from '../../giveaways/results/giveaway.views.ts';
import { isAppError } from '../../shared/errors.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { BotContext } from '../context.ts';
import { esc, planName, utcMinute } from '../format.ts';
import type { ConsoleGiveaways } from '../giveaway-port.ts';
import { safeReply } from '../safe-reply.ts';
import { manageData } from './replace.composer.ts';

export interface ConsoleDeps {
  accounts: Pick<AccountService, 'findByTelegramId'>;
  giveaways: Pick<ConsoleGiveaways, 'list' | 'closeNow'>;
  publicBaseUrl: string;
  log: BotLogger;
  wake?: () => void;
}

const LISTED = 10;
const PUBLIC_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `/giveaways` and `/draw <public_id>`: the owner's own giveaways only (the service checks). */
export function consoleComposer(deps: ConsoleDeps): Composer<BotContext> {
  const { accounts, giveaways, log } = deps;
  const composer = new Composer<BotContext>();
  const direct = composer.chatType('private');

  /** The account of a Business user, or undefined after telling them why not. */
  async function businessAccount(ctx: BotContext) {
    const account = await accounts.findByTelegramId(ctx.from!.id);
    if (account && hasBusinessAccess(account.plan)) return account;
    await safeReply(ctx, log, ctx.t('console-business-only', { plan: planName(account?.plan ?? 'free') }));
    return undefined;
  }

  direct.command('giveaways', async (ctx) => {
    const account = await businessAccount(ctx);
    if (!account) return;
    const page = await giveaways.list(account.id, { limit: LISTED });
    if (page.giveaways.length === 0) {
      await safeReply(ctx, log, ctx.t('giveaways-none'));
      return;
    }
    const items = page.giveaways.map((g) =>
      ctx.t('giveaways-item', {
        title: esc(g.title),
        id: g.public_id,
        status: ctx.t(`giveaway-status-${g.status}`),
        entrants: g.participants_count,
        page: esc(`${deps.publicBaseUrl}/g/${g.public_id}`),
        result: g.certificate_id
          ? ` · <a href="${esc(verifyUrlOf(deps.publicBaseUrl, g.certificate_id))}">${ctx.t('status-completed')}</a>`
          : '',
      }),
    );
    const more = page.next_cursor ? ['', ctx.t('giveaways-more')] : [];
    // A drawn giveaway opens its winners as they stand, where one can be replaced (CONTRACT §14).
    const keyboard = new InlineKeyboard();
    for (const g of page.giveaways.filter((g) => g.status === 'completed')) {
      const title = [...g.title].length > 40 ? `${[...g.title].slice(0, 39).join('')}…` : g.title;
      keyboard.text(ctx.t('giveaways-button-winners', { title }), manageData.pack({ id: g.public_id })).row();
    }
    const text = [ctx.t('giveaways-head'), '', ...items, ...more].join('\n');
    await safeReply(ctx, log, text, keyboard.inline_keyboard.length > 0 ? { keyboard } : {});
  });

  direct.command('draw', async (ctx) => {
    const publicId = ctx.match.trim();
    if (!PUBLIC_ID.test(publicId)) {
      await safeReply(ctx, log, ctx.t('draw-usage'));
      return;
    }
    const account = await businessAccount(ctx);
    if (!account) return;
    const context = {
      accountId: account.id,
      keyId: '',
      xRequestId: `bot:${ctx.update.update_id}`,
      endpoint: 'bot /draw',
    };
    try {
      const outcome = await giveaways.closeNow(context, publicId);
      deps.wake?.();
      const title = esc(outcome.title);
      if (outcome.kind === 'drawn') {
        await safeReply(ctx, log, ctx.t('draw-done', { title, url: esc(outcome.verifyUrl) }));
      } else if (outcome.kind === 'checking') {
        await safeReply(ctx, log, ctx.t('draw-checking', { title }));
      } else {
        const vars = {
          title,
          count: outcome.count,
          round: String(outcome.round),
          due: utcMinute(outcome.roundAt),
        };
        await safeReply(ctx, log, ctx.t('draw-sealed', vars));
      }
      log.info(
        { telegram_id: ctx.from.id, public_id: publicId, outcome: outcome.kind },
        'giveaway closed in the bot',
      );
    } catch (error) {
      if (!isAppError(error)) throw error;
      if (error.code === 'not_found' || error.code === 'forbidden') {
        await safeReply(ctx, log, ctx.t('draw-not-yours'));
      } else if (error.code === 'no_participants') {
        await safeReply(ctx, log, ctx.t('draw-no-entrants', { title: esc(publicId) }));
      } else if (error.code === 'randomness_unavailable') {
        await safeReply(ctx, log, ctx.t('draw-unavailable'));
      } else throw error;
    }
  });

  return composer;
}
