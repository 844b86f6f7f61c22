import { Composer, type Context, InlineKeyboard } from 'grammy';
import type { AccountService } from '../accounts/account.service.ts';
import type { BotLogger } from './bot-logger.ts';
import * as text from './messages.ts';
import { safeAnswer, safeEdit, safeReply } from './safe-reply.ts';

export interface KeysDeps {
  accounts: Pick<
    AccountService,
    'ensureTelegramAccount' | 'findByTelegramId' | 'createKey' | 'listKeys' | 'revokeKey'
  >;
  log: BotLogger;
}

const MAX_LABEL = 100;
const PREFIX = /^tk_[A-Za-z0-9_-]{9}$/;
const REVOKE_CALLBACK = /^revoke:(yes|no):(tk_[A-Za-z0-9_-]{9})$/;

/** `/plan`, `/newkey`, `/keys` and `/revoke`: private chats only, where a key cannot leak to a group. */
export function keysComposer({ accounts, log }: KeysDeps): Composer<Context> {
  const composer = new Composer<Context>();
  const direct = composer.chatType('private');

  direct.command('plan', async (ctx) => {
    const { account } = await accounts.ensureTelegramAccount(ctx.from.id);
    await safeReply(ctx, log, text.planInfo(account.plan, ctx.from.id));
  });

  direct.command('newkey', async (ctx) => {
    const { account } = await accounts.ensureTelegramAccount(ctx.from.id);
    if (account.plan !== 'business') {
      await safeReply(ctx, log, text.businessOnly(account.plan));
      return;
    }
    const label = ctx.match.trim();
    if (label.length > MAX_LABEL) {
      await safeReply(ctx, log, text.labelTooLong);
      return;
    }
    // No `plan` here: giving one would also set it on the account.
    const created = await accounts.createKey({ ownerTelegramId: ctx.from.id, label: label || undefined });
    const shown = await safeReply(
      ctx,
      log,
      text.newKey(created.key, created.key_prefix, created.label, created.daily_limit),
    );
    if (!shown) {
      // A key nobody saw can never be used, only leaked later: take it out of service.
      await accounts.revokeKey(created.key_prefix, created.account_id);
      log.warn(
        { telegram_id: ctx.from.id, key_prefix: created.key_prefix },
        'new key not delivered; revoked',
      );
      return;
    }
    log.info({ telegram_id: ctx.from.id, key_prefix: created.key_prefix }, 'API key created in the bot');
  });

  direct.command('keys', async (ctx) => {
    const account = await accounts.findByTelegramId(ctx.from.id);
    const keys = account ? await accounts.listKeys(account.id) : [];
    await safeReply(ctx, log, text.keyList(keys));
  });

  direct.command('revoke', async (ctx) => {
    const prefix = ctx.match.trim();
    if (!PREFIX.test(prefix)) {
      await safeReply(ctx, log, prefix ? text.noSuchKey(prefix) : text.revokeUsage);
      return;
    }
    const account = await accounts.findByTelegramId(ctx.from.id);
    const key = account
      ? (await accounts.listKeys(account.id)).find((k) => k.key_prefix === prefix && k.revoked_at === null)
      : undefined;
    if (!key) {
      await safeReply(ctx, log, text.noSuchKey(prefix));
      return;
    }
    const keyboard = new InlineKeyboard()
      .text('Revoke', `revoke:yes:${prefix}`)
      .text('Keep', `revoke:no:${prefix}`);
    await safeReply(ctx, log, text.confirmRevoke(key), { keyboard });
  });

  // The account comes from whoever pressed the button, so a forwarded confirmation
  // cannot revoke someone else's key.
  composer.callbackQuery(REVOKE_CALLBACK, async (ctx) => {
    const [, answer, prefix] = ctx.match;
    if (answer === 'no') {
      await safeAnswer(ctx, log);
      await safeEdit(ctx, log, text.revokeCancelled(prefix));
      return;
    }
    const account = await accounts.findByTelegramId(ctx.from.id);
    const done = account ? await accounts.revokeKey(prefix, account.id) : false;
    if (done) log.info({ telegram_id: ctx.from.id, key_prefix: prefix }, 'API key revoked in the bot');
    await safeAnswer(ctx, log, done ? 'Revoked' : 'Nothing to revoke');
    await safeEdit(ctx, log, done ? text.revoked(prefix) : text.noSuchKey(prefix));
  });

  return composer;
}
