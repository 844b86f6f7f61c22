import { Composer, InlineKeyboard } from 'grammy';
import type { AccountService } from '../../accounts/account.service.ts';
import { ConditionNotMet } from '../../giveaways/giveaway.service.ts';
import type { Clock } from '../../shared/clock.ts';
import { isAppError } from '../../shared/errors.ts';
import { stripControlCharacters } from '../../shared/text-rules.ts';
import type { BotLogger } from '../bot-logger.ts';
import type { BotContext } from '../context.ts';
import type { Conversations } from '../conversation-port.ts';
import { esc } from '../format.ts';
import type { BotGiveaways, JoiningParticipant, JoinResult } from '../giveaway-port.ts';
import { helpText } from '../help.composer.ts';
import { safeAnswer, safeEdit, safeReply } from '../safe-reply.ts';
import { appKeyboard } from './app-link.ts';
import {
  type Challenge,
  challengeData,
  challengeKeyboard,
  MAX_WRONG,
  newChallenge,
  PICTURES,
} from './join-challenge.ts';
import { joinData, joinUrlFor, parseJoinPayload } from './join-link.ts';

export interface JoinDeps {
  accounts: Pick<AccountService, 'ensureTelegramAccount'>;
  giveaways: BotGiveaways;
  conversations: Conversations;
  clock: Clock;
  log: BotLogger;
  /** The Mini App's address, when it is served: the join reply then offers it. */
  appUrl?: string | undefined;
}

type Outcome =
  | { ok: true; result: JoinResult }
  | { ok: false; key: string; vars?: Record<string, string>; channelUrl?: string | null };

const CHALLENGE = 'challenge';

/** `/start` (account), `/start g_<id>` (deep-link join, with the optional challenge) and Join buttons. */
export function joinComposer(deps: JoinDeps): Composer<BotContext> {
  const { accounts, giveaways, conversations, clock, log } = deps;
  const composer = new Composer<BotContext>();
  const now = () => clock.now().getTime();

  /** Why a giveaway cannot be joined, as a catalogue key; rethrows anything else. */
  function refusal(error: unknown): Outcome {
    if (error instanceof ConditionNotMet) {
      return {
        ok: false,
        key: 'join-needs-channel',
        vars: { title: esc(error.giveaway.title), channel: esc(error.channel.label) },
        channelUrl: error.channel.invite_url,
      };
    }
    if (isAppError(error) && error.code === 'not_found') return { ok: false, key: 'giveaway-not-found' };
    if (isAppError(error) && error.code === 'giveaway_completed')
      return { ok: false, key: 'giveaway-completed' };
    if (isAppError(error) && error.code === 'giveaway_sealed') return { ok: false, key: 'giveaway-sealed' };
    throw error;
  }

  // Each join is stored before the reply is attempted; a reply that fails is only logged.
  async function join(publicId: string, from: NonNullable<BotContext['from']>): Promise<Outcome> {
    const participant: JoiningParticipant = { telegram_id: from.id };
    // The API refuses control characters in names; from a Telegram name they are dropped instead,
    // since the entrant cannot fix their name for us.
    const username = stripControlCharacters(from.username ?? '');
    const firstName = stripControlCharacters(from.first_name ?? '');
    if (username) participant.username = username;
    if (firstName) participant.first_name = firstName;
    try {
      const result = await giveaways.join(publicId, participant);
      log.info(
        { telegram_id: from.id, public_id: publicId, status: result.status, entry: result.entryNumber },
        'giveaway join',
      );
      return { ok: true, result };
    } catch (error) {
      return refusal(error);
    }
  }

  function joinedText(ctx: BotContext, result: JoinResult): string {
    const vars = { title: esc(result.giveaway.title), entry: result.entryNumber };
    const first = ctx.t(result.status === 'duplicate' ? 'joined-again' : 'joined', vars);
    // The link's fragment holds the entrant's salt: the page checks the entry in the browser.
    return result.receiptUrl
      ? `${first}\n\n${ctx.t('joined-receipt', { url: esc(result.receiptUrl) })}`
      : first;
  }

  function refusedKeyboard(ctx: BotContext, outcome: Outcome): InlineKeyboard | undefined {
    if (outcome.ok || !outcome.channelUrl) return undefined;
    return new InlineKeyboard().url(
      ctx.t('join-button-channel', { channel: outcome.vars?.channel ?? '' }),
      outcome.channelUrl,
    );
  }

  async function replyOutcome(ctx: BotContext, outcome: Outcome): Promise<void> {
    if (outcome.ok) {
      const keyboard = appKeyboard(ctx.t('join-button-app'), deps.appUrl, outcome.result.giveaway.public_id);
      await safeReply(ctx, log, joinedText(ctx, outcome.result), keyboard ? { keyboard } : {});
      return;
    }
    const keyboard = refusedKeyboard(ctx, outcome);
    await safeReply(ctx, log, ctx.t(outcome.key, outcome.vars), keyboard ? { keyboard } : {});
  }

  async function askChallenge(ctx: BotContext, challenge: Challenge, title: string, wrong: boolean) {
    await conversations.save(
      ctx.from!.id,
      { kind: CHALLENGE, step: 'ask', data: { ...challenge, title } },
      now(),
    );
    const emoji = PICTURES[challenge.answer];
    const text = ctx.t(wrong ? 'challenge-wrong' : 'challenge-ask', { title: esc(title), emoji });
    if (wrong) await safeEdit(ctx, log, text, challengeKeyboard(challenge));
    else await safeReply(ctx, log, text, { keyboard: challengeKeyboard(challenge) });
  }

  const direct = composer.chatType('private');

  direct.command('start', async (ctx) => {
    const publicId = parseJoinPayload(ctx.match);
    if (publicId) {
      let gate: Awaited<ReturnType<BotGiveaways['gate']>>;
      try {
        gate = await giveaways.gate(publicId);
      } catch (error) {
        await replyOutcome(ctx, refusal(error));
        return;
      }
      if (gate.challenge) await askChallenge(ctx, newChallenge(publicId), gate.title, false);
      else await replyOutcome(ctx, await join(publicId, ctx.from));
      return;
    }
    const { created } = await accounts.ensureTelegramAccount(ctx.from.id);
    if (created) log.info({ telegram_id: ctx.from.id }, 'account created from Telegram');
    const name = ctx.from.first_name ? `, ${esc(ctx.from.first_name)}` : '';
    const welcome = ctx.t(created ? 'welcome-new' : 'welcome-back', { name });
    await safeReply(ctx, log, `${welcome}\n\n${helpText(ctx)}`);
  });

  composer.callbackQuery(challengeData.filter, async (ctx) => {
    const data = challengeData.unpack(ctx.callbackQuery.data);
    const current = await conversations.get<Challenge & { title: string }>(ctx.from.id, now());
    if (!data || current?.kind !== CHALLENGE || current.data.nonce !== data.nonce) {
      await safeAnswer(ctx, log);
      await safeEdit(ctx, log, ctx.t('challenge-stale'));
      return;
    }
    const challenge = current.data;
    await safeAnswer(ctx, log);
    if (Number(data.pick) !== challenge.answer) {
      if (challenge.wrong + 1 >= MAX_WRONG) {
        await conversations.clear(ctx.from.id);
        log.info({ telegram_id: ctx.from.id, public_id: challenge.publicId }, 'join challenge failed');
        await safeEdit(ctx, log, ctx.t('challenge-failed'));
        return;
      }
      await askChallenge(ctx, newChallenge(challenge.publicId, challenge.wrong + 1), challenge.title, true);
      return;
    }
    await conversations.clear(ctx.from.id);
    const outcome = await join(challenge.publicId, ctx.from);
    if (outcome.ok) {
      const keyboard = appKeyboard(ctx.t('join-button-app'), deps.appUrl, outcome.result.giveaway.public_id);
      await safeEdit(ctx, log, joinedText(ctx, outcome.result), keyboard);
    } else await safeEdit(ctx, log, ctx.t(outcome.key, outcome.vars), refusedKeyboard(ctx, outcome));
  });

  // Posts made with /post join in the button's pop-up; a giveaway with a challenge sends the
  // user to the bot instead, where the challenge is asked.
  composer.callbackQuery(joinData.filter, async (ctx) => {
    const publicId = joinData.unpack(ctx.callbackQuery.data)!.id;
    let gate: Awaited<ReturnType<BotGiveaways['gate']>> | undefined;
    try {
      gate = await giveaways.gate(publicId);
    } catch (error) {
      const outcome = refusal(error);
      if (!outcome.ok) await safeAnswer(ctx, log, ctx.t(outcome.key, outcome.vars), true);
      return;
    }
    if (gate.challenge) {
      await ctx.answerCallbackQuery({ url: joinUrlFor(ctx.me.username)(publicId) }).catch(() => {});
      return;
    }
    const outcome = await join(publicId, ctx.from);
    if (outcome.ok) {
      const vars = { title: outcome.result.giveaway.title, entry: outcome.result.entryNumber };
      const key = outcome.result.status === 'duplicate' ? 'joined-popup-again' : 'joined-popup';
      await safeAnswer(ctx, log, ctx.t(key, vars), true);
    } else {
      const key = outcome.key === 'join-needs-channel' ? 'join-needs-channel-popup' : outcome.key;
      // Pop-ups are plain text: the channel's label goes in unescaped.
      const vars = outcome.vars ? { ...outcome.vars, channel: outcome.vars.channel ?? '' } : undefined;
      await safeAnswer(ctx, log, ctx.t(key, vars), true);
    }
  });

  return composer;
}
