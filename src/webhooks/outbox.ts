import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import {
  createOutboxRepository,
  type MessageRow,
  type NewDelivery,
  pendingDelivery,
} from './outbox.repository.ts';
import { type EventRecord, messageBody, newMessageId, type WebhookEvent } from './webhook-events.ts';

export interface Outbox {
  /**
   * Records events for every endpoint of their account that subscribes to them. Given the
   * handle of the transaction that makes the change, the messages exist exactly when the
   * change commits. An account without a subscribed endpoint costs one indexed read.
   */
  record(events: readonly EventRecord[]): Promise<void>;
}

export function createOutbox(handle: Kysely<Database>): Outbox {
  const outbox = createOutboxRepository(handle);
  return {
    async record(events) {
      if (events.length === 0) return;
      const subscribers = new Map<string, { id: string; events: WebhookEvent[] }[]>();
      for (const accountId of new Set(events.map((e) => e.accountId))) {
        subscribers.set(accountId, await outbox.subscribers(accountId));
      }
      const messages: MessageRow[] = [];
      const deliveries: NewDelivery[] = [];
      for (const event of events) {
        const targets = (subscribers.get(event.accountId) ?? []).filter((s) => s.events.includes(event.type));
        if (targets.length === 0) continue;
        const id = newMessageId(event.at);
        messages.push({
          id,
          account_id: event.accountId,
          type: event.type,
          body: messageBody(event),
          created_at: event.at,
        });
        for (const target of targets) {
          deliveries.push(pendingDelivery(id, target.id, event.orderingKey, event.at));
        }
      }
      await outbox.insert(messages, deliveries);
    },
  };
}
