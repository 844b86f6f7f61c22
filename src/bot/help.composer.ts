import { Composer, type Context } from 'grammy';
import type { BotLogger } from './bot-logger.ts';
import * as text from './messages.ts';
import { safeReply } from './safe-reply.ts';

/** `/help`, and the answer to any other private message (registered last). */
export function helpComposer({ log }: { log: BotLogger }): Composer<Context> {
  const composer = new Composer<Context>();
  const direct = composer.chatType('private');
  direct.command('help', (ctx) => safeReply(ctx, log, text.help()).then(() => {}));
  direct.on('message', (ctx) => safeReply(ctx, log, text.help()).then(() => {}));
  return composer;
}
