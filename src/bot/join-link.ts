import { InlineKeyboard } from 'grammy';

const JOIN_PAYLOAD = /^g_([A-Za-z0-9_-]{1,62})$/;
export const JOIN_CALLBACK = /^join:([A-Za-z0-9_-]{1,62})$/;

/** A giveaway's `join_url`: Telegram opens the bot and sends `/start g_<public_id>`. */
export function joinUrlFor(botUsername: string): (publicId: string) => string {
  return (publicId) => `https://t.me/${botUsername}?start=g_${publicId}`;
}

/** The giveaway named by a `/start` payload, or undefined when the payload is not a join. */
export function parseJoinPayload(payload: string): string | undefined {
  return JOIN_PAYLOAD.exec(payload.trim())?.[1];
}

/**
 * The "Join" button for a channel post. A bot can only message people who have started it,
 * so the button answers in the callback's pop-up rather than in a private chat.
 */
export function joinKeyboard(publicId: string, label = 'Join'): InlineKeyboard {
  return new InlineKeyboard().text(label, `join:${publicId}`);
}
