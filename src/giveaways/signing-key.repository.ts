import type { Kysely, Selectable } from 'kysely';
import type { Database, SigningKeysTable } from '../store/schema.ts';

export type SigningKeyRow = Selectable<SigningKeysTable>;
export type KeyOrigin = 'generated' | 'configured';

export function createSigningKeyRepository(db: Kysely<Database>) {
  return {
    async all(): Promise<SigningKeyRow[]> {
      return db.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute();
    },

    async activeGenerated(): Promise<SigningKeyRow | undefined> {
      return db
        .selectFrom('signing_keys')
        .selectAll()
        .where('origin', '=', 'generated')
        .where('retired_at', 'is', null)
        .executeTakeFirst();
    },

    /** Loses silently to a concurrent insert of another generated key (one active at a time). */
    async insertGenerated(row: SigningKeyRow): Promise<void> {
      await db
        .insertInto('signing_keys')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    /** Records a configured key (public part only) as the one in use; other configured keys retire. */
    async useConfigured(row: SigningKeyRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('signing_keys')
          .values(row)
          .onConflict((oc) => oc.column('kid').doUpdateSet({ retired_at: null }))
          .execute();
        await trx
          .updateTable('signing_keys')
          .set({ retired_at: row.created_at })
          .where('origin', '=', 'configured')
          .where('kid', '!=', row.kid)
          .where('retired_at', 'is', null)
          .execute();
      });
    },
  };
}

export type SigningKeyRepository = ReturnType<typeof createSigningKeyRepository>;
