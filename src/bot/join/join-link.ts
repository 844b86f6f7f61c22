import { InlineKeyboard } from 'grammy';
import { callbackData } from '../callback-data.ts';

const JOIN_PAYLOAD = /^g_([A-Za-z0-9_-]{1,62})$/;
/** The Join button of posts made with `/post`: it joins in the callback's pop-up. */
export const joinData = callbackData('join', ['id']);

/** A giveaway's `join_url`: Telegram opens the bot and sends `/start g_<public_id>`. */
export function joinUrlFor(botUsername: string): (publicId: string) => string {
  return (publicId) => `https://t.me/${botUsername}?start=g_${publicId}`;
}

/** The giveaway named by a `/start` payload, or undefined when the payload is not a join. */
export function parseJoinPayload(payload: string): string | undefined {
  return JOIN_PAYLOAD.exec(payload.trim())?.[1];
}

/** The Join button of a channel post: it opens the bot at the giveaway's deep link (CONTRACT §11). */
export function joinKeyboard(botUsername: string, publicId: string, label: string): InlineKeyboard {
  return new InlineKeyboard().url(label, joinUrlFor(botUsername)(publicId));
}
