import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../store/schema.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export function createEndpointRepository(db: Kysely<Database>) {
  return {
    async insert(row: EndpointRow, trx: Kysely<Database> = db): Promise<void> {
      await trx.insertInto('webhook_endpoints').values(row).execute();
    },

    async find(id: string): Promise<EndpointRow | undefined> {
      return db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    async listActive(accountId: string, trx: Kysely<Database> = db): Promise<EndpointRow[]> {
      return trx
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async markDeleted(id: string, at: number, trx: Kysely<Database> = db): Promise<boolean> {
      const result = await trx
        .updateTable('webhook_endpoints')
        .set({ deleted_at: at })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type EndpointRepository = ReturnType<typeof createEndpointRepository>;
