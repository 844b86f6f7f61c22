import { Composer } from 'grammy';
import type { BotLogger } from './bot-logger.ts';
import { commandList } from './commands.ts';
import type { BotContext } from './context.ts';
import { esc } from './format.ts';
import { safeReply } from './safe-reply.ts';

export function helpText(ctx: BotContext): string {
  const lines = commandList(ctx.language).map((c) => `/${c.command} — ${esc(c.description)}`);
  return [ctx.t('help-intro'), '', ...lines, '', ctx.t('help-join')].join('\n');
}

/** `/help`, and the answer to any other private message (registered last). */
export function helpComposer({ log }: { log: BotLogger }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const direct = composer.chatType('private');
  direct.command('help', (ctx) => safeReply(ctx, log, helpText(ctx)).then(() => {}));
  direct.on('message', (ctx) => safeReply(ctx, log, helpText(ctx)).then(() => {}));
  return composer;
}
