import { randomBytes } from 'node:crypto';

/** CONTRACT §9: the events an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = [
  'giveaway.sealed',
  'giveaway.drawn',
  'giveaway.amended',
  'participant.joined',
  'webhook.test',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What happened, as the change that caused it describes it; the outbox turns it into messages. */
export interface EventRecord {
  accountId: string;
  type: WebhookEvent;
  /** Events with one key reach one endpoint in the order they were recorded (the giveaway). */
  orderingKey: string;
  /**
   * Or what builds it, called only for an event some endpoint receives: a bulk entry records a
   * participant.joined per entrant, and an account without a subscriber needs none of them built.
   */
  data: object | (() => object);
  /** When it happened, epoch milliseconds. */
  at: number;
}

/**
 * `msg_` and 24 base62 characters: the first seven count milliseconds, so ids sort roughly by
 * time in a receiver's logs, and 128 random bits keep them unique across processes.
 */
export function newMessageId(at: number): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let time = '';
  for (let t = Math.floor(at); time.length < 7; t = Math.floor(t / 62)) time = alphabet[t % 62] + time;
  let rest = '';
  for (const byte of randomBytes(17)) rest += alphabet[byte % 62];
  return `msg_${time}${rest}`;
}

/** The exact body of a message: the same bytes are signed and sent on every attempt. */
export function messageBody(event: Pick<EventRecord, 'type' | 'data' | 'at'>): string {
  const data = typeof event.data === 'function' ? event.data() : event.data;
  return JSON.stringify({ type: event.type, timestamp: new Date(event.at).toISOString(), data });
}
