import { Composer, InlineKeyboard } from 'grammy';
import type { AccountService, KeySummary } from '../../accounts/account.service.ts';
import { hasBusinessAccess } from '../../accounts/plans.ts';
import type { BotLogger } from '../bot-logger.ts';
import { callbackData } from '../callback-data.ts';
import type { BotContext } from '../context.ts';
import { esc, planName, utcMinute } from '../format.ts';
import { safeAnswer, safeEdit, safeReply } from '../safe-reply.ts';

export interface KeysDeps {
  accounts: Pick<
    AccountService,
    'ensureTelegramAccount' | 'findByTelegramId' | 'createKey' | 'listKeys' | 'revokeKey'
  >;
  log: BotLogger;
}

const MAX_LABEL = 100;
const PREFIX = /^tk_[A-Za-z0-9_-]{9}$/;
export const revokeData = callbackData('revoke', ['answer', 'prefix']);

const labelPart = (ctx: BotContext, key: string, label: string | null) =>
  label ? ctx.t(key, { label: esc(label) }) : '';

function keyList(ctx: BotContext, keys: readonly KeySummary[]): string {
  const active = keys.filter((k) => k.revoked_at === null);
  if (active.length === 0) return ctx.t('key-none');
  const items = active.map((k) =>
    ctx.t('key-list-item', {
      prefix: k.key_prefix,
      label: k.label ? ` — ${esc(k.label)}` : '',
      created: utcMinute(k.created_at),
      lastUsed: k.last_used_at ? utcMinute(k.last_used_at) : ctx.t('key-never'),
      today: k.requests_today,
      limit: k.daily_limit,
    }),
  );
  return [ctx.t('key-list-head', { count: active.length }), '', ...items, '', ctx.t('key-list-foot')].join(
    '\n',
  );
}

/** `/plan`, `/newkey`, `/keys` and `/revoke`: private chats only, where a key cannot leak to a group. */
export function keysComposer({ accounts, log }: KeysDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const direct = composer.chatType('private');

  direct.command('plan', async (ctx) => {
    const { account } = await accounts.ensureTelegramAccount(ctx.from.id);
    const current = ctx.t('plan-current', { plan: planName(account.plan) });
    const text = hasBusinessAccess(account.plan)
      ? `${current}\n${ctx.t('plan-business')}`
      : [
          current,
          ctx.t('plan-upgrade-needed'),
          ctx.t('plan-upgrade-how', { telegramId: String(ctx.from.id) }),
          ctx.t('plan-upgrade-then'),
        ].join('\n');
    await safeReply(ctx, log, text);
  });

  direct.command('newkey', async (ctx) => {
    const { account } = await accounts.ensureTelegramAccount(ctx.from.id);
    if (!hasBusinessAccess(account.plan)) {
      await safeReply(ctx, log, ctx.t('business-only', { plan: planName(account.plan) }));
      return;
    }
    const label = ctx.match.trim();
    if (label.length > MAX_LABEL) {
      await safeReply(ctx, log, ctx.t('label-too-long'));
      return;
    }
    // No `plan` here: giving one would also set it on the account.
    const created = await accounts.createKey({ ownerTelegramId: ctx.from.id, label: label || undefined });
    const text = ctx.t('new-key', {
      key: created.key,
      prefix: created.key_prefix,
      label: labelPart(ctx, 'new-key-label', created.label),
      limit: created.daily_limit,
    });
    // The reply retries Telegram's 429 itself; a reply that still fails is one nobody saw.
    if (!(await safeReply(ctx, log, text))) {
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
    await safeReply(ctx, log, keyList(ctx, keys));
  });

  direct.command('revoke', async (ctx) => {
    const prefix = ctx.match.trim();
    if (!PREFIX.test(prefix)) {
      await safeReply(
        ctx,
        log,
        prefix ? ctx.t('revoke-none', { prefix: esc(prefix) }) : ctx.t('revoke-usage'),
      );
      return;
    }
    const account = await accounts.findByTelegramId(ctx.from.id);
    const key = account
      ? (await accounts.listKeys(account.id)).find((k) => k.key_prefix === prefix && k.revoked_at === null)
      : undefined;
    if (!key) {
      await safeReply(ctx, log, ctx.t('revoke-none', { prefix }));
      return;
    }
    const keyboard = new InlineKeyboard()
      .text(ctx.t('revoke-button-yes'), revokeData.pack({ answer: 'yes', prefix }))
      .text(ctx.t('revoke-button-no'), revokeData.pack({ answer: 'no', prefix }));
    const text = ctx.t('revoke-confirm', { prefix, label: key.label ? ` (${esc(key.label)})` : '' });
    await safeReply(ctx, log, text, { keyboard });
  });

  // The account comes from whoever pressed the button, so a forwarded confirmation
  // cannot revoke someone else's key.
  composer.callbackQuery(revokeData.filter, async (ctx) => {
    const data = revokeData.unpack(ctx.callbackQuery.data);
    if (!data || !PREFIX.test(data.prefix)) return safeAnswer(ctx, log);
    const { answer, prefix } = data;
    if (answer !== 'yes') {
      await safeAnswer(ctx, log);
      await safeEdit(ctx, log, ctx.t('revoke-kept', { prefix }));
      return;
    }
    const account = await accounts.findByTelegramId(ctx.from.id);
    const done = account ? await accounts.revokeKey(prefix, account.id) : false;
    if (done) log.info({ telegram_id: ctx.from.id, key_prefix: prefix }, 'API key revoked in the bot');
    await safeAnswer(ctx, log, ctx.t(done ? 'revoke-popup-done' : 'revoke-popup-none'));
    await safeEdit(ctx, log, done ? ctx.t('revoke-done', { prefix }) : ctx.t('revoke-none', { prefix }));
  });

  return composer;
}
