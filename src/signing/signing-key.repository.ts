import type { Kysely, Selectable } from 'kysely';
import type { Database, SigningKeysTable } from '../store/schema.ts';
import { atomically } from '../store/unit-of-work.ts';

export type SigningKeyRow = Selectable<SigningKeysTable>;

/**
 * A generated key replaced by `tyche signing-key rotate` but not retired yet: it signs nothing
 * new, yet stays valid in the log for a grace period, because a process may have loaded it just
 * before the rotation and be about to log what it signed.
 */
export const RETIRING = 'retiring';

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

    /** The keys not retired: the generated one in use, any retiring ones, configured ones. */
    async unretired(): Promise<SigningKeyRow[]> {
      return db.selectFrom('signing_keys').selectAll().where('retired_at', 'is', null).execute();
    },

    /**
     * Replaces the generated key in use by `row`, announced in the same transaction; the old one
     * becomes RETIRING. Returns the kids it replaced.
     */
    async rotateGenerated(row: SigningKeyRow): Promise<string[]> {
      return atomically(db, async (trx) => {
        const replaced = await trx
          .updateTable('signing_keys')
          .set({ origin: RETIRING })
          .where('origin', '=', 'generated')
          .where('retired_at', 'is', null)
          .returning('kid')
          .execute();
        if (!(await insertIfAbsent(trx, row))) throw new Error(`key ${row.kid} is already stored`);
        await announce(trx, row, false);
        return replaced.map((r) => r.kid);
      });
    },

    /**
     * Retires (and announces the retirement of) every RETIRING key once the key that replaced
     * it has been in use for `graceMs`. Processes racing here retire each key once: the update
     * reports only the rows this transaction changed.
     */
    async retireReplaced(now: number, graceMs: number): Promise<SigningKeyRow[]> {
      return atomically(db, async (trx) => {
        const current = await trx
          .selectFrom('signing_keys')
          .select('created_at')
          .where('origin', '=', 'generated')
          .where('retired_at', 'is', null)
          .executeTakeFirst();
        if (!current || current.created_at + graceMs > now) return [];
        const retired = await trx
          .updateTable('signing_keys')
          .set({ origin: 'generated', retired_at: now })
          .where('origin', '=', RETIRING)
          .where('retired_at', 'is', null)
          .returningAll()
          .execute();
        for (const row of retired) await announce(trx, row, true);
        return retired;
      });
    },

    /** Loses silently to a concurrent insert of another generated key (one active at a time). */
    async insertGenerated(row: SigningKeyRow): Promise<void> {
      await atomically(db, async (trx) => {
        if (await insertIfAbsent(trx, row)) await announce(trx, row, false);
      });
    },

    /** Records a configured key (public part only) as the one in use; other configured keys retire. */
    async useConfigured(row: SigningKeyRow): Promise<void> {
      await atomically(db, async (trx) => {
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
