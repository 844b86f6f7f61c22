import { type Kysely, sql } from 'kysely';
import type { ClaimInput, Job } from '../jobs/job.repository.ts';
import type { Database } from '../store/schema.ts';
import { skipLocked } from '../store/skip-locked.ts';
import { atomically } from '../store/unit-of-work.ts';
import type { WebhookDeliveryStatus } from '../store/webhook-schema.ts';
import type { WebhookEvent } from './webhook-events.ts';

export const DELIVERY_KIND = 'webhook.delivery';

/** One attempt of one delivery, as `/webhooks/{id}/deliveries` lists it. */
export interface AttemptRecord {
  message_id: string;
  event: WebhookEvent;
  attempt: number;
  status_code: number | null;
  error: string | null;
  at: string;
}

/** What an attempt needs: the endpoint, the message, and how many attempts this one makes. */
export interface DueDelivery {
  id: number;
  attempts: number;
  endpointId: string;
  url: string;
  secret: string;
  endpointDeleted: boolean;
  messageId: string;
  event: string;
  body: string;
}

/**
 * The outbox as a queue the job runner can drive: a claim is a lease (`locked_until`), as for
 * jobs. Only the oldest pending delivery of each endpoint and giveaway can be claimed, so one
 * endpoint sees one giveaway's events in the order they happened, retries included; on
 * PostgreSQL several processes claim with SKIP LOCKED and never take the same delivery at once.
 */
export function createDeliveryRepository(db: Kysely<Database>) {
  return {
    async claimDue(input: ClaimInput): Promise<Job[]> {
      if (input.limit <= 0) return [];
      const due = db
        .selectFrom('webhook_deliveries')
        .select('webhook_deliveries.id')
        .where('webhook_deliveries.status', '=', 'pending')
        .where('webhook_deliveries.next_at', '<=', input.now)
        .where((eb) =>
          eb.or([
            eb('webhook_deliveries.locked_until', 'is', null),
            eb('webhook_deliveries.locked_until', '<', input.now),
          ]),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as e')
                .select(sql`1`.as('one'))
                .whereRef('e.endpoint_id', '=', 'webhook_deliveries.endpoint_id')
                .whereRef('e.ordering_key', '=', 'webhook_deliveries.ordering_key')
                .where('e.status', '=', 'pending')
                .whereRef('e.id', '<', 'webhook_deliveries.id'),
            ),
          ),
        )
        .orderBy('webhook_deliveries.next_at')
        .orderBy('webhook_deliveries.id')
        .limit(input.limit);
      const rows = await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({ locked_until: input.now + input.leaseMs, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', skipLocked(db, due))
        .returning(['id', 'attempts', 'next_at', 'locked_until', 'created_at'])
        .execute();
      return rows
        .map((r) => ({
          id: Number(r.id),
          kind: DELIVERY_KIND,
          key: `delivery:${r.id}`,
          payload: null,
          runAt: Number(r.next_at),
          attempts: Number(r.attempts),
          lockedUntil: r.locked_until === null ? null : Number(r.locked_until),
          lastError: null,
          createdAt: Number(r.created_at),
          doneAt: null,
        }))
        .sort((a, b) => a.runAt - b.runAt || a.id - b.id);
    },

    /** The handler has recorded the outcome; only the lease is left to let go. */
    async complete(id: number): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ locked_until: null }).where('id', '=', id).execute();
    },

    async retry(id: number, input: { runAt: number }): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ next_at: input.runAt, locked_until: null })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    async load(id: number): Promise<DueDelivery | undefined> {
      const row = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
        .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
        .select([
          'd.id',
          'd.attempts',
          'd.endpoint_id',
          'w.url',
          'w.secret',
          'w.deleted_at',
          'm.id as message_id',
          'm.type',
          'm.body',
        ])
        .where('d.id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: Number(row.id),
        attempts: Number(row.attempts),
        endpointId: row.endpoint_id,
        url: row.url,
        secret: row.secret,
        endpointDeleted: row.deleted_at !== null,
        messageId: row.message_id,
        event: row.type,
        body: row.body,
      };
    },

    /** Keeps the attempt and, when it was the last one, the delivery's final status, together. */
    async recordAttempt(
      delivery: DueDelivery,
      attempt: { statusCode: number | null; error: string | null; at: number },
      final: Exclude<WebhookDeliveryStatus, 'pending'> | null,
    ): Promise<void> {
      await atomically(db, async (trx) => {
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: delivery.id,
            endpoint_id: delivery.endpointId,
            message_id: delivery.messageId,
            event: delivery.event,
            attempt: delivery.attempts,
            status_code: attempt.statusCode,
            error: attempt.error,
            at: attempt.at,
          })
          .execute();
        if (final) await finish(trx, delivery.id, final, attempt.at);
      });
    },

    async cancel(deliveryId: number, at: number): Promise<void> {
      await finish(db, deliveryId, 'cancelled', at);
    },

    /** Stops every pending delivery to a deleted endpoint. */
    async cancelEndpoint(endpointId: string, at: number): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', done_at: at })
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .execute();
    },

    async latestAttempts(endpointId: string, limit: number): Promise<AttemptRecord[]> {
      const rows = await db
        .selectFrom('webhook_attempts')
        .select(['message_id', 'event', 'attempt', 'status_code', 'error', 'at'])
        .where('endpoint_id', '=', endpointId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        message_id: r.message_id,
        event: r.event as WebhookEvent,
        attempt: Number(r.attempt),
        status_code: r.status_code === null ? null : Number(r.status_code),
        error: r.error,
        at: new Date(Number(r.at)).toISOString(),
      }));
    },

    /** Deliveries not yet delivered, failed or cancelled, for metrics and tests. */
    async pendingCount(): Promise<number> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

async function finish(
  handle: Kysely<Database>,
  id: number,
  status: Exclude<WebhookDeliveryStatus, 'pending'>,
  at: number,
): Promise<void> {
  await handle
    .updateTable('webhook_deliveries')
    .set({ status, done_at: at, locked_until: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
