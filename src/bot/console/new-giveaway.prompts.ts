// The words and buttons of `/new` (CONTRACT §11): each step's question, the button that answers
// it, and the preview. Pure: the dialogue itself, and what it stores, is in new-giveaway.composer.ts.

import { InlineKeyboard } from 'grammy';
import { WINNERS_MAX } from '../../giveaways/core/giveaway-input.ts';
import { translatorFor } from '../../i18n/catalogue.ts';
import { TERMS_MAX } from '../../proof/terms.ts';
import { callbackData } from '../callback-data.ts';
import type { BotContext } from '../context.ts';
import { esc, utcMinute } from '../format.ts';
import type { ChannelCondition } from '../giveaway-port.ts';
import { giveawayPost } from '../posts/post-texts.ts';
import {
  CLAIM_PRESETS,
  type ClaimPreset,
  claimLabel,
  exampleEnd,
  termsFingerprint,
} from './new-giveaway.answers.ts';

// `claim` and `terms` are asked only from the preview's buttons: optional steps outside the numbered six.
const STEPS = [
  'title',
  'description',
  'winners',
  'ends',
  'channel',
  'required',
  'preview',
  'claim',
  'terms',
] as const;
export type Step = (typeof STEPS)[number];

/** The answers so far; `nonce` ties the preview's buttons to this one dialogue. */
export interface Draft {
  nonce: string;
  title?: string;
  description?: string | null;
  winners?: number;
  endsAt?: number;
  channel?: ChannelCondition;
  required?: ChannelCondition[];
  challenge?: boolean;
  /** How long each winner has to claim, in ms (CONTRACT §14); absent or null: no deadline. */
  claimWithin?: number | null;
  /** The terms the seal will commit to (CONTRACT §14); absent or null: none. */
  terms?: string | null;
}

export const newData = callbackData('nw', ['action', 'nonce']);
export type Action =
  | 'skip'
  | 'none'
  | 'publish'
  | 'challenge'
  | 'cancel'
  | 'claim'
  | ClaimPreset
  | 'claimNone'
  | 'terms'
  | 'termsNone';

export const pack = (action: Action, nonce: string) => newData.pack({ action, nonce });

/** The question of a step, in the user's language. */
export function question(ctx: BotContext, step: Step, nowMs: number): string {
  if (step === 'winners') return ctx.t('new-ask-winners', { max: WINNERS_MAX });
  if (step === 'ends') return ctx.t('new-ask-ends', { example: exampleEnd(nowMs) });
  if (step === 'claim') return ctx.t('new-ask-claim');
  if (step === 'terms') return ctx.t('new-ask-terms', { max: TERMS_MAX });
  return ctx.t(`new-ask-${step}`);
}

/** The button that answers a step without typing, where it has one. */
export function buttonFor(ctx: BotContext, step: Step, nonce: string): InlineKeyboard | undefined {
  if (step === 'description') return new InlineKeyboard().text(ctx.t('new-button-skip'), pack('skip', nonce));
  if (step === 'required') return new InlineKeyboard().text(ctx.t('new-button-none'), pack('none', nonce));
  if (step === 'claim') {
    const keyboard = new InlineKeyboard();
    for (const [preset, ms] of Object.entries(CLAIM_PRESETS))
      keyboard.text(claimLabel(ms), pack(preset as ClaimPreset, nonce));
    return keyboard.row().text(ctx.t('new-button-claim-none'), pack('claimNone', nonce));
  }
  if (step === 'terms')
    return new InlineKeyboard().text(ctx.t('new-button-terms-none'), pack('termsNone', nonce));
  return undefined;
}

/** The preview: the channel post as it will read, then the settings the post does not show. */
export function previewText(ctx: BotContext, draft: Draft): string {
  const post = giveawayPost(translatorFor(ctx.language), {
    title: draft.title!,
    description: draft.description ?? null,
    winners: draft.winners!,
    endsAt: draft.endsAt!,
    count: 0,
  });
  const required = draft.required?.length
    ? draft.required.map((c) => esc(c.label)).join(', ')
    : ctx.t('new-required-none');
  const settings = ctx.t('new-preview-settings', {
    winners: draft.winners!,
    ends: utcMinute(draft.endsAt!),
    required,
    challenge: ctx.t(draft.challenge ? 'new-challenge-on' : 'new-challenge-off'),
    claim: draft.claimWithin ? claimLabel(draft.claimWithin) : ctx.t('new-claim-none'),
  });
  const terms = draft.terms ? ctx.t('new-terms-set', termsFingerprint(draft.terms)) : ctx.t('new-terms-none');
  return [
    ctx.t('new-preview-head', { channel: esc(draft.channel!.label) }),
    '',
    post,
    '',
    '—',
    settings,
    ctx.t('new-preview-terms', { terms }),
  ].join('\n');
}

/** The preview's buttons: publish, the optional steps, cancel. */
export function previewKeyboard(ctx: BotContext, draft: Draft): InlineKeyboard {
  return new InlineKeyboard()
    .text(ctx.t('new-button-publish'), pack('publish', draft.nonce))
    .row()
    .text(
      ctx.t(draft.challenge ? 'new-button-challenge-off' : 'new-button-challenge-on'),
      pack('challenge', draft.nonce),
    )
    .row()
    .text(ctx.t('new-button-claim'), pack('claim', draft.nonce))
    .row()
    .text(ctx.t('new-button-terms'), pack('terms', draft.nonce))
    .row()
    .text(ctx.t('new-button-cancel'), pack('cancel', draft.nonce));
}
