import { randomBytes } from 'node:crypto';
import { Composer, type Filter } from 'grammy';
import type { AccountService } from '../../accounts/account.service.ts';
import { hasBusinessAccess } from '../../accounts/plans.ts';
import { isoDuration } from '../../giveaways/core/giveaway-input.ts';
import type { Clock } from '../../shared/clock.ts';
import { isAppError } from '../../shared/errors.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { BotContext } from '../context.ts';
import type { Conversations } from '../conversation-port.ts';
import { esc, planName, utcMinute } from '../format.ts';
import type { ChannelCondition, ConsoleGiveaways } from '../giveaway-port.ts';
import { safeAnswer, safeEdit, safeReply } from '../safe-reply.ts';
import { lookUpChannel } from './channel-lookup.ts';
import {
  type Answer,
  CLAIM_PRESETS,
  type ClaimPreset,
  NONE,
  readChannelRef,
  readClaim,
  readDescription,
  readEnds,
  readRequired,
  readTerms,
  readTitle,
  readWinners,
} from './new-giveaway.answers.ts';
import {
  type Action,
  buttonFor,
  type Draft,
  newData,
  previewKeyboard,
  previewText,
  question,
  type Step,
} from './new-giveaway.prompts.ts';

export interface NewGiveawayDeps {
  accounts: Pick<AccountService, 'ensureTelegramAccount'>;
  giveaways: Pick<ConsoleGiveaways, 'create'>;
  conversations: Conversations;
  clock: Clock;
  log: BotLogger;
  /** Runs due background work now (the channel post just promised) instead of at the next poll. */
  wake?: () => void;
}

const KIND = 'new';

type Message = Filter<BotContext, 'message'>['message'];

/**
 * `/new` (CONTRACT §11): one question per message in the contract's order, each answer typed
 * (or a button for the same answer), a wrong one answered with what is wrong and the question
 * again, then a preview whose Publish button creates the giveaway through the same service as
 * the API, with its channel post promised in the same transaction. The dialogue is stored, so
 * it goes on across processes and restarts; `/cancel` leaves it at any step.
 */
export function newGiveawayComposer(deps: NewGiveawayDeps): Composer<BotContext> {
  const { accounts, giveaways, conversations, clock, log } = deps;
  const composer = new Composer<BotContext>();
  const now = () => clock.now().getTime();
  const save = (ctx: BotContext, step: Step, draft: Draft) =>
    conversations.save(ctx.from!.id, { kind: KIND, step, data: draft }, now());

  async function ask(ctx: BotContext, step: Step, draft: Draft, problem?: string): Promise<void> {
    await save(ctx, step, draft);
    if (step === 'preview') return preview(ctx, draft, false);
    const text = problem ? `${problem}\n\n${question(ctx, step, now())}` : question(ctx, step, now());
    const keyboard = buttonFor(ctx, step, draft.nonce);
    await safeReply(ctx, log, text, keyboard ? { keyboard } : {});
  }

  async function preview(ctx: BotContext, draft: Draft, edit: boolean): Promise<void> {
    const keyboard = previewKeyboard(ctx, draft);
    if (edit) await safeEdit(ctx, log, previewText(ctx, draft), keyboard);
    else await safeReply(ctx, log, previewText(ctx, draft), { keyboard });
  }

  /** The answer to the step the user is at, read from a typed text or a forwarded post. */
  async function answer(
    ctx: BotContext,
    step: Step,
    draft: Draft,
    text: string,
    message?: Message,
  ): Promise<void> {
    const fail = (a: Extract<Answer<unknown>, { ok: false }>) => ask(ctx, step, draft, ctx.t(a.key, a.vars));
    /** A valid answer goes into the draft and the next question is asked; else this one again. */
    const take = <T>(a: Answer<T>, next: Step, into: (value: T) => Partial<Draft>) =>
      a.ok ? ask(ctx, next, { ...draft, ...into(a.value) }) : fail(a);
    const botId = ctx.me.id;
    switch (step) {
      case 'title':
        return take(readTitle(text), 'description', (title) => ({ title }));
      case 'description':
        return take(readDescription(text), 'winners', (description) => ({ description }));
      case 'winners':
        return take(readWinners(text), 'ends', (winners) => ({ winners }));
      case 'ends':
        return take(readEnds(text, now()), 'channel', (endsAt) => ({ endsAt }));
      case 'channel': {
        const origin = message?.forward_origin;
        const ref = origin?.type === 'channel' ? origin.chat.id : readChannelRef(text);
        if (ref === undefined) return fail({ ok: false, key: 'new-bad-channel' });
        const found = await lookUpChannel(ctx.api, ref, botId, 'post');
        if (!found.ok) {
          const shown = typeof ref === 'string' ? ref : String(ref);
          return fail({ ok: false, key: found.key, vars: { channel: esc(shown), bot: ctx.me.username } });
        }
        return ask(ctx, 'required', { ...draft, channel: found.channel });
      }
      case 'required': {
        const a = readRequired(text);
        if (!a.ok) return fail(a);
        const required: ChannelCondition[] = [];
        for (const ref of a.value) {
          const found = await lookUpChannel(ctx.api, ref, botId, 'required');
          if (!found.ok) {
            return fail({
              ok: false,
              key: found.key,
              vars: { channel: esc(String(ref)), bot: ctx.me.username },
            });
          }
          required.push(found.channel);
        }
        return ask(ctx, 'preview', { ...draft, required, challenge: false });
      }
      case 'claim':
        return take(readClaim(text), 'preview', (claimWithin) => ({ claimWithin }));
      case 'terms':
        return take(readTerms(text), 'preview', (terms) => ({ terms }));
      case 'preview':
        await safeReply(ctx, log, ctx.t('new-in-progress'));
    }
  }

  async function publish(ctx: BotContext, draft: Draft): Promise<void> {
    const { account } = await accounts.ensureTelegramAccount(ctx.from!.id);
    if (!hasBusinessAccess(account.plan)) {
      await conversations.clear(ctx.from!.id);
      await safeEdit(ctx, log, ctx.t('console-business-only', { plan: planName(account.plan) }));
      return;
    }
    // Taking the dialogue is the claim on it: of two presses of Publish, one creates the giveaway.
    if (!(await conversations.clear(ctx.from!.id))) {
      await safeEdit(ctx, log, ctx.t('new-stale'));
      return;
    }
    let created: Awaited<ReturnType<ConsoleGiveaways['create']>>;
    try {
      created = await giveaways.create(
        account.id,
        {
          title: draft.title!,
          description: draft.description ?? undefined,
          winners_count: draft.winners!,
          ends_at: new Date(draft.endsAt!).toISOString(),
          draw_mode: 'verifiable',
          // An unclaimed prize goes to the next reserve: with a deadline, one reserve per winner.
          ...(draft.claimWithin
            ? { claim_within: isoDuration(draft.claimWithin), reserve_count: Math.min(draft.winners!, 100) }
            : {}),
          ...(draft.terms ? { terms: draft.terms } : {}),
        },
        {
          conditions: draft.required ?? [],
          joinChallenge: draft.challenge === true,
          post: { chatId: draft.channel!.chat_id, language: ctx.language },
        },
      );
    } catch (error) {
      // The preview waited long enough for its end time to come too close: ask for it again.
      if (isAppError(error) && error.code === 'invalid_parameter') {
        await ask(ctx, 'ends', draft, ctx.t('new-ends-past'));
        return;
      }
      await save(ctx, 'preview', draft);
      throw error;
    }
    log.info(
      { telegram_id: ctx.from!.id, public_id: created.public_id, channel: draft.channel!.chat_id },
      'giveaway created in the bot',
    );
    deps.wake?.();
    await safeEdit(
      ctx,
      log,
      ctx.t('new-published', {
        title: esc(created.title),
        channel: esc(draft.channel!.label),
        page: esc(created.public_url),
        join: esc(created.join_url ?? ''),
        ends: utcMinute(draft.endsAt!),
      }),
    );
  }

  const direct = composer.chatType('private');

  direct.command('new', async (ctx) => {
    const { account } = await accounts.ensureTelegramAccount(ctx.from.id);
    if (!hasBusinessAccess(account.plan)) {
      await safeReply(ctx, log, ctx.t('console-business-only', { plan: planName(account.plan) }));
      return;
    }
    await ask(ctx, 'title', { nonce: randomBytes(6).toString('base64url') });
  });

  direct.command('cancel', async (ctx) => {
    const had = await conversations.clear(ctx.from.id);
    await safeReply(ctx, log, ctx.t(had ? 'new-cancelled' : 'new-nothing-to-cancel'));
  });

  // Any other message continues a /new dialogue; commands and messages outside one go on.
  direct.on('message', async (ctx, next) => {
    const text = ctx.message.text ?? ctx.message.caption ?? '';
    if (text.startsWith('/')) return next();
    const current = await conversations.get<Draft>(ctx.from.id, now());
    if (current?.kind !== KIND) return next();
    await answer(ctx, current.step as Step, current.data, text, ctx.message);
  });

  composer.callbackQuery(newData.filter, async (ctx) => {
    const data = newData.unpack(ctx.callbackQuery.data)!;
    const current = await conversations.get<Draft>(ctx.from.id, now());
    await safeAnswer(ctx, log);
    if (current?.kind !== KIND || current.data.nonce !== data.nonce) {
      await safeEdit(ctx, log, ctx.t('new-stale'));
      return;
    }
    const step = current.step as Step;
    const draft = current.data;
    switch (data.action as Action) {
      case 'skip':
      case 'none':
        if (step === 'description' || step === 'required') return answer(ctx, step, draft, NONE);
        return;
      case 'challenge':
        if (step !== 'preview') return;
        await save(ctx, 'preview', { ...draft, challenge: !draft.challenge });
        return preview(ctx, { ...draft, challenge: !draft.challenge }, true);
      case 'cancel':
        await conversations.clear(ctx.from.id);
        return safeEdit(ctx, log, ctx.t('new-cancelled'));
      case 'publish':
        if (step === 'preview') return publish(ctx, draft);
        return;
      case 'claim':
        if (step === 'preview') return ask(ctx, 'claim', draft);
        return;
      case 'claimNone':
        if (step === 'claim') return ask(ctx, 'preview', { ...draft, claimWithin: null });
        return;
      case 'terms':
        if (step === 'preview') return ask(ctx, 'terms', draft);
        return;
      case 'termsNone':
        if (step === 'terms') return ask(ctx, 'preview', { ...draft, terms: null });
        return;
      default:
        if (step === 'claim' && Object.hasOwn(CLAIM_PRESETS, data.action)) {
          return ask(ctx, 'preview', { ...draft, claimWithin: CLAIM_PRESETS[data.action as ClaimPreset] });
        }
    }
  });

  return composer;
}
