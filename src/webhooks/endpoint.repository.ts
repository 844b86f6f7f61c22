import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { WebhookEndpointsTable } from '../store/webhook-schema.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export function createEndpointRepository(db: Kysely<Database>) {
  return {
    /**
     * Holds the account's row until the transaction ends (an update of nothing), so two
     * creations for one account take turns and the endpoint limit holds under concurrency.
     */
    async lockAccount(accountId: string): Promise<void> {
      await db
        .updateTable('accounts')
        .set((eb) => ({ plan: eb.ref('plan') }))
        .where('id', '=', accountId)
        .execute();
    },

    async insert(row: EndpointRow): Promise<void> {
      await db.insertInto('webhook_endpoints').values(row).execute();
    },

    async find(id: string): Promise<EndpointRow | undefined> {
      return db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    async listActive(accountId: string): Promise<EndpointRow[]> {
      return db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async markDeleted(id: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('webhook_endpoints')
        .set({ deleted_at: at })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
