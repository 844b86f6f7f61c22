import type { Plan } from '../accounts/plans.ts';
import { escapeHtml } from '../shared/html-escape.ts';

/** Pieces of messages that are the same in every language. */

/** How every message is sent: as HTML (text from outside goes through `esc`), without link previews. */
export const AS_HTML = { parse_mode: 'HTML', link_preview_options: { is_disabled: true } } as const;

const PLAN_NAMES: Record<Plan, string> = { free: 'Free', pro: 'Pro', business: 'Business' };

export const planName = (plan: string): string => PLAN_NAMES[plan as Plan] ?? plan;

/** `2026-11-23 18:00 UTC`: minutes are enough for a person, and UTC is what /new asks for. */
export function utcMinute(at: number | string): string {
  const iso = typeof at === 'number' ? new Date(at).toISOString() : at;
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** How a winner or entrant is named in a channel: @username, else the first name, else the id. */
export function displayName(user: {
  username: string | null;
  first_name?: string | null;
  telegram_id: number;
}) {
  if (user.username) return `@${escapeHtml(user.username)}`;
  if (user.first_name) return escapeHtml(user.first_name);
  return `id ${user.telegram_id}`;
}

/** User text inside a Telegram HTML message. */
export const esc = (text: string): string => escapeHtml(text);
