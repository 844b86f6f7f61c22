import { Composer } from 'grammy';
import { verifyUrlOf } from '../../giveaways/results/giveaway.views.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { BotContext } from '../context.ts';
import { esc } from '../format.ts';
import type { ConsoleGiveaways } from '../giveaway-port.ts';
import { safeReply } from '../safe-reply.ts';
import { appKeyboard } from './app-link.ts';

const LISTED = 20;

/** `/my`: the giveaways a participant entered, with status and receipt links (CONTRACT §11). */
export function myComposer(deps: {
  giveaways: Pick<ConsoleGiveaways, 'entriesOf'>;
  publicBaseUrl: string;
  log: BotLogger;
  /** The Mini App's address, when it is served: the list then offers it. */
  appUrl?: string | undefined;
}): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType('private').command('my', async (ctx) => {
    const entries = await deps.giveaways.entriesOf(ctx.from.id, LISTED);
    if (entries.length === 0) {
      await safeReply(ctx, deps.log, ctx.t('my-none'));
      return;
    }
    const items = entries.map((e) => {
      const title = esc(e.title);
      if (e.excluded) return ctx.t('my-item-excluded', { title, entry: e.entry_number });
      return ctx.t('my-item', {
        title,
        entry: e.entry_number,
        status: ctx.t(`status-${e.status}`),
        receipt: esc(e.receipt_url ?? ''),
        result: e.certificate_id
          ? ctx.t('my-result', { url: esc(verifyUrlOf(deps.publicBaseUrl, e.certificate_id)) })
          : '',
      });
    });
    const keyboard = appKeyboard(ctx.t('my-button-app'), deps.appUrl);
    const text = [ctx.t('my-head', { count: entries.length }), '', ...items].join('\n');
    await safeReply(ctx, deps.log, text, keyboard ? { keyboard } : {});
  });
  return composer;
}
