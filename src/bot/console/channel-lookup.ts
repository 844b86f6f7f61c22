import type { Api } from 'grammy';
import type { ChatFullInfo } from 'grammy/types';
import type { ChannelCondition } from '../giveaway-port.ts';
import { classifyTelegramError } from '../telegram-errors.ts';

/** A channel the bot can see: its id, how people know it, and where to join it. */
export interface Channel extends ChannelCondition {}

type Found = { ok: true; channel: Channel } | { ok: false; key: string };

const ADMIN_STATUSES = new Set(['administrator', 'creator']);

function channelOf(chat: ChatFullInfo): Channel {
  const username = 'username' in chat ? chat.username : undefined;
  const title = 'title' in chat ? chat.title : undefined;
  return {
    chat_id: chat.id,
    label: username ? `@${username}` : (title ?? String(chat.id)),
    invite_url: username ? `https://t.me/${username}` : (chat.invite_link ?? null),
  };
}

/**
 * Looks a channel up and checks the bot's own rights there: for the channel a giveaway is
 * posted in, an admin who may post and edit (the entrants count is an edit); for a required
 * channel, any admin (Telegram answers getChatMember about a channel's members only to its admins).
 */
export async function lookUpChannel(
  api: Pick<Api, 'getChat' | 'getChatMember'>,
  ref: string | number,
  botId: number,
  purpose: 'post' | 'required',
): Promise<Found> {
  let chat: ChatFullInfo;
  try {
    chat = await api.getChat(ref);
  } catch (error) {
    if (classifyTelegramError(error).kind === 'transient') throw error;
    return { ok: false, key: purpose === 'post' ? 'new-channel-unknown' : 'new-required-unknown' };
  }
  if (chat.type !== 'channel') return { ok: false, key: 'new-not-channel' };
  let member: Awaited<ReturnType<Api['getChatMember']>>;
  try {
    member = await api.getChatMember(chat.id, botId);
  } catch (error) {
    if (classifyTelegramError(error).kind === 'transient') throw error;
    return { ok: false, key: purpose === 'post' ? 'new-not-admin' : 'new-required-unknown' };
  }
  if (!ADMIN_STATUSES.has(member.status)) {
    return { ok: false, key: purpose === 'post' ? 'new-not-admin' : 'new-required-unknown' };
  }
  if (purpose === 'post' && member.status === 'administrator') {
    if (!member.can_post_messages || !member.can_edit_messages) return { ok: false, key: 'new-cannot-post' };
  }
  return { ok: true, channel: channelOf(chat) };
}
