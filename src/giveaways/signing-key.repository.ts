import type { Kysely, Selectable } from 'kysely';
import type { Database, SigningKeysTable } from '../store/schema.ts';

export type SigningKeyRow = Selectable<SigningKeysTable>;
export type KeyOrigin = 'generated' | 'configured';

/**
 * Called in the transaction that makes a key usable (or retires one), so the log announces it
 * before it can sign anything (CONTRACT §8 "Keys in the log").
 */
export type KeyAnnouncer = (trx: Kysely<Database>, row: SigningKeyRow, retired: boolean) => Promise<unknown>;

/** Inserts the key unless its kid is stored; true when this call stored it. */
async function insertIfAbsent(trx: Kysely<Database>, row: SigningKeyRow): Promise<boolean> {
  const inserted = await trx
    .insertInto('signing_keys')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('kid')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function createSigningKeyRepository(db: Kysely<Database>, announce: KeyAnnouncer) {
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
      await db.transaction().execute(async (trx) => {
        if (await insertIfAbsent(trx, row)) await announce(trx, row, false);
      });
    },

    /** Records a configured key (public part only) as the one in use; other configured keys retire. */
    async useConfigured(row: SigningKeyRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // Each write reports whether this transaction made the change, so processes starting
        // together announce the key once.
        const inserted = await insertIfAbsent(trx, row);
        const revived = inserted
          ? undefined
          : await trx
              .updateTable('signing_keys')
              .set({ retired_at: null })
              .where('kid', '=', row.kid)
              .where('retired_at', 'is not', null)
              .returning('kid')
              .executeTakeFirst();
        if (inserted || revived) await announce(trx, { ...row, retired_at: null }, false);
        const retiring = await trx
          .updateTable('signing_keys')
          .set({ retired_at: row.created_at })
          .where('origin', '=', 'configured')
          .where('kid', '!=', row.kid)
          .where('retired_at', 'is', null)
          .returningAll()
          .execute();
        for (const retired of retiring) await announce(trx, retired, true);
      });
    },
  };
}

export type SigningKeyRepository = ReturnType<typeof createSigningKeyRepository>;
