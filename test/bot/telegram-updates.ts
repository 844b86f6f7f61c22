import type { Update, User } from 'grammy/types';

/** Updates as Telegram would send them, for pushing into the fake Bot API server. */

let nextUserId = 700_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

/** A Telegram user no other test uses. */
export function telegramUser(extra: Partial<User> = {}): User {
  const id = nextUserId++;
  return { id, is_bot: false, first_name: `Tester${id % 1000}`, username: `tester_${id}`, ...extra };
}

/** A private-chat text message from `from`, with the entity Telegram adds to a leading /command. */
export function textMessage(from: User, text: string): Omit<Update, 'update_id'> {
  const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
  return {
    message: {
      message_id: nextUserId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: 'private', first_name: from.first_name },
      from,
      text,
      ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
    },
  } as Omit<Update, 'update_id'>;
}

/** A press of an inline button with `data`, under a message in a private chat or a channel. */
export function buttonPress(
  from: User,
  data: string,
  where: { chatId: number; type: 'private' | 'channel'; messageId?: number } = {
    chatId: from.id,
    type: 'private',
  },
): Omit<Update, 'update_id'> {
  const chat =
    where.type === 'private'
      ? { id: where.chatId, type: 'private', first_name: from.first_name }
      : { id: where.chatId, type: 'channel', title: 'Giveaway channel' };
  return {
    callback_query: {
      id: String(nextUserId++),
      from,
      chat_instance: String(where.chatId),
      data,
      message: {
        message_id: where.messageId ?? 1,
        date: Math.floor(Date.now() / 1000),
        chat,
        text: 'Giveaway',
      },
    },
  } as Omit<Update, 'update_id'>;
}

/** A channel's post forwarded by `from` into the private chat (how /new is told a private channel). */
export function forwardedFrom(
  from: User,
  channel: { id: number; title: string; username?: string },
): Omit<Update, 'update_id'> {
  return {
    message: {
      message_id: nextUserId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: 'private', first_name: from.first_name },
      from,
      text: 'A post of the channel',
      forward_origin: {
        type: 'channel',
        date: Math.floor(Date.now() / 1000) - 60,
        chat: { id: channel.id, type: 'channel', title: channel.title, username: channel.username },
        message_id: 42,
      },
    },
  } as Omit<Update, 'update_id'>;
}
