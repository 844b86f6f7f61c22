import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CertificateV2 } from '../../proof/v2-types.ts';
import type { CertificateV1 } from '../../proof/verify-v1.ts';
import type { CertificatesTable, Database, GiveawaysTable } from '../../store/schema.ts';

export type GiveawayRow = Selectable<GiveawaysTable>;
export type NewGiveaway = Insertable<GiveawaysTable>;
export type CertificateRow = Selectable<CertificatesTable>;
/** A certificate row's body: v1 (instant) or v2 (verifiable). */
export type AnyCertificate = CertificateV1 | CertificateV2;
export type GiveawayStatus = 'active' | 'sealing' | 'sealed' | 'completed';
export type DrawMode = 'verifiable' | 'instant';

export interface ListFilter {
  accountId: string;
  status?: GiveawayStatus | undefined;
}

/**
 * Locks the giveaway's row for the rest of the transaction if it has `status`, and returns its
 * participant count; undefined in any other status. A write rather than SELECT … FOR UPDATE, so the
 * same statement takes PostgreSQL's row lock and SQLite's write lock.
 */
export async function lockGiveawayIn(
  db: Kysely<Database>,
  id: number,
  status: GiveawayStatus,
): Promise<number | undefined> {
  const row = await db
    .updateTable('giveaways')
    .set((eb) => ({ participants_count: eb.ref('participants_count') }))
    .where('id', '=', id)
    .where('status', '=', status)
    .returning('participants_count')
    .executeTakeFirst();
  return row ? Number(row.participants_count) : undefined;
}

export function createGiveawayRepository(db: Kysely<Database>) {
  const filtered = (filter: ListFilter, trx: Kysely<Database>) => {
    let query = trx.selectFrom('giveaways').where('account_id', '=', filter.accountId);
    if (filter.status) query = query.where('status', '=', filter.status);
    return query;
  };

  return {
    async insert(row: NewGiveaway, trx: Kysely<Database> = db): Promise<GiveawayRow> {
      return trx.insertInto('giveaways').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async findByPublicId(publicId: string, trx: Kysely<Database> = db): Promise<GiveawayRow | undefined> {
      return trx.selectFrom('giveaways').selectAll().where('public_id', '=', publicId).executeTakeFirst();
    },

    /** Newest first (ids only grow), `limit` rows with an id below `beforeId` when given. */
    async list(filter: ListFilter & { beforeId?: number; limit: number }, trx: Kysely<Database> = db) {
      let query = filtered(filter, trx).selectAll();
      if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
      return query.orderBy('id', 'desc').limit(filter.limit).execute();
    },

    async count(filter: ListFilter, trx: Kysely<Database> = db): Promise<number> {
      const row = await filtered(filter, trx)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Locks an active giveaway's row for the rest of the transaction and returns its participant
     * count; undefined once it is completed (the lock conflicts with `complete`).
     */
    lockActive(id: number, trx: Kysely<Database> = db): Promise<number | undefined> {
      return lockGiveawayIn(trx, id, 'active');
    },

    async setParticipantsCount(id: number, count: number, trx: Kysely<Database> = db): Promise<void> {
      await trx.updateTable('giveaways').set({ participants_count: count }).where('id', '=', id).execute();
    },

    /**
     * `from` → completed, once: the completed row, or undefined when another draw got there
     * first. An instant giveaway is drawn from `active`, a verifiable one from `sealed`.
     */
    async complete(
      id: number,
      done: { drawnAt: number; certificateId: string; from: 'active' | 'sealed' },
      trx: Kysely<Database> = db,
    ): Promise<GiveawayRow | undefined> {
      return trx
        .updateTable('giveaways')
        .set({ status: 'completed', drawn_at: done.drawnAt, certificate_id: done.certificateId })
        .where('id', '=', id)
        .where('status', '=', done.from)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * active → sealing, once: entries close (joins take the row only while `active`) while the
     * channel conditions are checked again; the sealing row, or undefined when not active.
     */
    async startSealing(id: number, trx: Kysely<Database> = db): Promise<GiveawayRow | undefined> {
      return trx
        .updateTable('giveaways')
        .set({ status: 'sealing' })
        .where('id', '=', id)
        .where('status', '=', 'active')
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * active or sealing → sealed, once: the same row lock as joins, so the list is frozen
     * atomically (a sealing giveaway takes no joins already).
     */
    async seal(id: number, sealedAt: number, trx: Kysely<Database> = db): Promise<boolean> {
      const result = await trx
        .updateTable('giveaways')
        .set({ status: 'sealed', sealed_at: sealedAt })
        .where('id', '=', id)
        .where('status', 'in', ['active', 'sealing'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async findById(id: number, trx: Kysely<Database> = db): Promise<GiveawayRow | undefined> {
      return trx.selectFrom('giveaways').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insertCertificate(row: CertificateRow, trx: Kysely<Database> = db): Promise<void> {
      await trx.insertInto('certificates').values(row).execute();
    },

    async findCertificate(id: string, trx: Kysely<Database> = db): Promise<CertificateRow | undefined> {
      return trx.selectFrom('certificates').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}

export type GiveawayRepository = ReturnType<typeof createGiveawayRepository>;
