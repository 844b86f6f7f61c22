import type { Transformer } from 'grammy';
import { realSleep, type Sleep } from '../sleep.ts';
import { announceLeaving } from './job-message.ts';

export interface ThrottleOptions {
  /** Calls a second over all chats (Telegram: about 30 messages a second). */
  perSecond: number;
  /** Messages a minute to one group or channel (Telegram: about 20). */
  perGroupPerMinute: number;
  now: () => number;
  sleep?: Sleep;
}

/** Methods that put or change a message in a chat, and so count against the chat's limit. */
const MESSAGE_METHODS = new Set(['sendMessage', 'editMessageText', 'editMessageReplyMarkup', 'sendPhoto']);

/** Private chats have positive ids; groups and channels negative ones or an @username. */
function groupChat(payload: Record<string, unknown>): string | undefined {
  const chat = payload.chat_id;
  if (typeof chat === 'string' && chat.startsWith('@')) return chat;
  if (typeof chat === 'number' && chat < 0) return String(chat);
  if (typeof chat === 'string' && chat.startsWith('-')) return chat;
  return undefined;
}

/**
 * Spaces out bulk calls (receipts, notices, membership checks, channel posts) under Telegram's
 * limits: each call reserves the next free slot, overall and for its group or channel, then
 * waits until that slot. Reservations are made in call order, so a burst queues fairly. The
 * limit is per process; processes that share a bot share the jobs table's pace, not this one.
 */
export function throttle(options: ThrottleOptions): Transformer {
  const sleep = options.sleep ?? realSleep;
  const gapMs = 1000 / options.perSecond;
  const groupGapMs = 60_000 / options.perGroupPerMinute;
  let nextSlot = 0;
  const groupSlots = new Map<string, number>();

  function reserve(payload: Record<string, unknown>, method: string): number {
    const now = options.now();
    let slot = Math.max(now, nextSlot);
    // Counted overall at its own turn: a call waiting for its channel does not hold up other chats.
    nextSlot = slot + gapMs;
    const group = MESSAGE_METHODS.has(method) ? groupChat(payload) : undefined;
    if (group !== undefined) {
      slot = Math.max(slot, groupSlots.get(group) ?? 0);
      groupSlots.set(group, slot + groupGapMs);
      // Forget groups whose slot has passed, so the map stays as small as the active ones.
      if (groupSlots.size > 1000) for (const [g, at] of groupSlots) if (at < now) groupSlots.delete(g);
    }
    return slot - now;
  }

  return async (prev, method, payload, signal) => {
    const waitMs = reserve(payload as Record<string, unknown>, method);
    if (waitMs > 0) await sleep(waitMs, (signal as AbortSignal | undefined) ?? new AbortController().signal);
    // Only now does the call leave: a job's message is announced here, after the wait.
    await announceLeaving(signal);
    return prev(method, payload, signal);
  };
}
