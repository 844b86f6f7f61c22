import assert from 'node:assert/strict';
import type { User } from 'grammy/types';
import type { Services } from '../../src/services.ts';
import type { TelegramCall } from '../helpers/fake-telegram.ts';
import type { BotHarness } from './bot-harness.ts';
import { telegramUser } from './telegram-updates.ts';

/** The console tests run the bot on the real giveaway service. */
export type RealGiveaways = Services['giveaways'];
export type ConsoleHarness = BotHarness<RealGiveaways>;

let nextChannel = -1_001_500_000_000 - Math.floor(Math.random() * 1_000_000) * 1000;

/** A channel the fake Bot API knows, with the bot as its admin unless told otherwise. */
export function channelFor(h: ConsoleHarness, options: { admin?: boolean; username?: string } = {}) {
  const id = nextChannel--;
  const channel = { id, title: `Channel ${-id}`, username: options.username ?? `chan_${-id % 1_000_000}` };
  h.fake.addChannel(channel);
  if (options.admin !== false) h.fake.makeBotAdmin(id);
  return channel;
}

export async function businessUser(h: ConsoleHarness, extra: Partial<User> = {}): Promise<User> {
  const user = telegramUser(extra);
  await h.services.accounts.setPlan(user.id, 'business');
  return user;
}

export const text = (call: TelegramCall) => String(call.params.text);
export const buttons = (call: TelegramCall): { text: string; callback_data?: string; url?: string }[] =>
  (call.params.reply_markup?.inline_keyboard ?? []).flat();
export const button = (call: TelegramCall, label: RegExp) => {
  const found = buttons(call).find((b) => label.test(b.text));
  assert.ok(found, `a button labelled ${label} in ${JSON.stringify(buttons(call))}`);
  return found;
};

/** Runs `/new` through every step with good answers; resolves with the preview message. */
export async function throughNew(
  h: ConsoleHarness,
  user: User,
  answers: { channel: string; required?: string; title?: string },
): Promise<TelegramCall> {
  assert.match(text(await h.say(user, '/new')), /step 1 of 6/);
  assert.match(text(await h.say(user, answers.title ?? 'Summer <prize>')), /Step 2 of 6/);
  assert.match(text(await h.say(user, 'A bike & a helmet')), /Step 3 of 6/);
  assert.match(text(await h.say(user, '2')), /Step 4 of 6/);
  assert.match(text(await h.say(user, 'in 6h')), /Step 5 of 6/);
  assert.match(text(await h.say(user, answers.channel)), /Step 6 of 6/);
  return h.say(user, answers.required ?? '-');
}
