import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { type EventRecord, messageBody, newMessageId, type WebhookEvent } from './webhook-events.ts';

/** Rows per insert statement: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export interface Outbox {
  /**
   * Records events for every endpoint of their account that subscribes to them. Given the
   * handle of the transaction that makes the change, the messages exist exactly when the
   * change commits. An account without a subscribed endpoint costs one indexed read.
   */
  record(events: readonly EventRecord[]): Promise<void>;
}

export function createOutbox(handle: Kysely<Database>): Outbox {
  return {
    async record(events) {
      if (events.length === 0) return;
      const subscribers = new Map<string, { id: string; events: WebhookEvent[] }[]>();
      for (const accountId of new Set(events.map((e) => e.accountId))) {
        const rows = await handle
          .selectFrom('webhook_endpoints')
          .select(['id', 'events'])
          .where('account_id', '=', accountId)
          .where('deleted_at', 'is', null)
          .execute();
        subscribers.set(
          accountId,
          rows.map((r) => ({ id: r.id, events: JSON.parse(r.events) as WebhookEvent[] })),
        );
      }
      const messages: Database['webhook_messages'][] = [];
      const deliveries: Omit<Database['webhook_deliveries'], 'id' | 'attempts'>[] = [];
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
          deliveries.push({
            message_id: id,
            endpoint_id: target.id,
            ordering_key: event.orderingKey,
            status: 'pending',
            next_at: event.at,
            locked_until: null,
            created_at: event.at,
            done_at: null,
          });
        }
      }
      for (let i = 0; i < messages.length; i += CHUNK) {
        await handle
          .insertInto('webhook_messages')
          .values(messages.slice(i, i + CHUNK))
          .execute();
      }
      for (let i = 0; i < deliveries.length; i += CHUNK) {
        await handle
          .insertInto('webhook_deliveries')
          .values(deliveries.slice(i, i + CHUNK))
          .execute();
      }
    },
  };
}
