import type { Kysely } from 'kysely';
import { insertInChunks } from '../store/chunked-insert.ts';
import type { Database } from '../store/schema.ts';
import type { WebhookEvent } from './webhook-events.ts';

/** Rows per insert statement: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export type MessageRow = Database['webhook_messages'];
export type NewDelivery = Omit<Database['webhook_deliveries'], 'id' | 'attempts'>;

/** The outbox's tables: messages to send and one delivery of each per endpoint. */
export function createOutboxRepository(handle: Kysely<Database>) {
  return {
    /** The endpoints of an account that are not deleted, with the events each subscribes to. */
    async subscribers(accountId: string): Promise<{ id: string; events: WebhookEvent[] }[]> {
      const rows = await handle
        .selectFrom('webhook_endpoints')
        .select(['id', 'events'])
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .execute();
      return rows.map((r) => ({ id: r.id, events: JSON.parse(r.events) as WebhookEvent[] }));
    },

    /** Messages, then their deliveries, in as few statements as the parameter limits allow. */
    async insert(messages: readonly MessageRow[], deliveries: readonly NewDelivery[]): Promise<void> {
      await insertInChunks(handle, 'webhook_messages', messages, CHUNK);
      await insertInChunks(handle, 'webhook_deliveries', deliveries, CHUNK);
    },
  };
}

/** A delivery due now, never attempted: how every message starts. */
export function pendingDelivery(
  messageId: string,
  endpointId: string,
  orderingKey: string,
  at: number,
): NewDelivery {
  return {
    message_id: messageId,
    endpoint_id: endpointId,
    ordering_key: orderingKey,
    status: 'pending',
    next_at: at,
    locked_until: null,
    created_at: at,
    done_at: null,
  };
}
