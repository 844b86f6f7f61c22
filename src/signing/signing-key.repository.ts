import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, SigningKeysTable } from '../store/schema.ts';
import { atomically } from '../store/unit-of-work.ts';

export type SigningKeyRow = Selectable<SigningKeysTable>;

/**
 * A key replaced by `tyche signing-key rotate` (a generated key) or by a process started with
 * another configured key: it signs nothing new in processes that moved, yet stays valid in the
 * log until no process holds a lease on it any more.
 */
export const RETIRING = 'retiring';

/** A process's claim to sign with a key until `until` (epoch ms of its own clock). */
export interface KeyLease {
  processId: string;
  until: number;
}

/** What a lease taken in one transaction found: whether a replaced key still awaits retirement. */
export interface Leased {
  row: SigningKeyRow;
  retiring: boolean;
}

/** What one retirement pass did: the keys it retired, and those still leased (until when). */
export interface Retirement {
  retired: string[];
  waiting: { kid: string; until: number }[];
}

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

/**
 * Locks the unretired key rows `where` picks with a write that changes nothing, on both
 * engines: a rotation or retirement of those rows then waits for this transaction (PostgreSQL's
 * row lock, SQLite's one writer), so a lease taken here is seen by every retirement after it.
 */
function lockUnretired(trx: Kysely<Database>, where: { kid: string } | { origin: string }) {
  const [column, value] =
    'kid' in where ? (['kid', where.kid] as const) : (['origin', where.origin] as const);
  return trx
    .updateTable('signing_keys')
    .set((eb) => ({ origin: eb.ref('origin') }))
    .where(column, '=', value)
    .where('retired_at', 'is', null)
    .returningAll()
    .execute();
}

/** Takes or renews `lease` on `kid`; returns whether a replaced key still awaits retirement. */
async function takeLease(trx: Kysely<Database>, kid: string, lease: KeyLease): Promise<boolean> {
  await trx
    .insertInto('signing_key_use')
    .values({ kid, process_id: lease.processId, until: lease.until })
    .onConflict((oc) => oc.columns(['kid', 'process_id']).doUpdateSet({ until: lease.until }))
    .execute();
  const retiring = await trx
    .selectFrom('signing_keys')
    .select('kid')
    .where('origin', '=', RETIRING)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  return retiring !== undefined;
}

/** Whether `kid` is stored and retired, read through `db` (the caller's transaction). */
export async function isRetiredKey(db: Kysely<Database>, kid: string): Promise<boolean> {
  const row = await db
    .selectFrom('signing_keys')
    .select('retired_at')
    .where('kid', '=', kid)
    .executeTakeFirst();
  return row !== undefined && row.retired_at !== null;
}

export function createSigningKeyRepository(db: Kysely<Database>, announce: KeyAnnouncer) {
  return {
    async all(): Promise<SigningKeyRow[]> {
      return db.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute();
    },

    /**
     * Leases the generated key in use, storing and announcing `candidate()` when there is none.
     * Processes racing here settle on one key (the unique index of migration 003): a loser's
     * insert does nothing and its second lock finds the winner's row.
     */
    async leaseGenerated(lease: KeyLease, candidate: () => SigningKeyRow): Promise<Leased> {
      return atomically(db, async (trx) => {
        let [row] = await lockUnretired(trx, { origin: 'generated' });
        if (!row) {
          const made = candidate();
          if (await insertIfAbsent(trx, made)) {
            await announce(trx, made, false);
            row = made;
          } else {
            [row] = await lockUnretired(trx, { origin: 'generated' });
          }
        }
        if (!row) throw new Error('no signing key could be stored');
        return { row, retiring: await takeLease(trx, row.kid, lease) };
      });
    },

    /**
     * Leases a configured key (public part only), storing and announcing it when it is new or
     * was retired. At a process's start (`starting`) it becomes the configured key and every
     * other configured key RETIRING, in one statement so processes starting together lock the
     * rows in one order; a key revived later is a straggler's and is RETIRING itself.
     */
    async leaseConfigured(lease: KeyLease, row: SigningKeyRow, starting: boolean): Promise<Leased> {
      return atomically(db, async (trx) => {
        if (starting) {
          await trx
            .updateTable('signing_keys')
            .set({ origin: sql<string>`case when kid = ${row.kid} then 'configured' else ${RETIRING} end` })
            .where('retired_at', 'is', null)
            .where((eb) =>
              eb.or([
                eb('origin', '=', 'configured'),
                eb.and([eb('kid', '=', row.kid), eb('private_seed', 'is', null)]),
              ]),
            )
            .execute();
        }
        const [locked] = await lockUnretired(trx, { kid: row.kid });
        if (!locked) {
          // Each write reports whether this transaction made the change, so processes starting
          // together announce the key once.
          const inserted = await insertIfAbsent(trx, row);
          const revived = inserted
            ? undefined
            : await trx
                .updateTable('signing_keys')
                .set({ retired_at: null, origin: starting ? 'configured' : RETIRING })
                .where('kid', '=', row.kid)
                .where('retired_at', 'is not', null)
                .returning('kid')
                .executeTakeFirst();
          if (inserted || revived) await announce(trx, { ...row, retired_at: null }, false);
        }
        return { row: locked ?? row, retiring: await takeLease(trx, row.kid, lease) };
      });
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
     * Retires (and announces the retirement of) every RETIRING key on which no lease lasts past
     * `now`, at `now`: every process dated its last signature by it no later than its lease, so
     * no signature by it is dated after its retirement, and the log entry comes after every
     * entry it signed that a process had already written. Processes racing here retire each key
     * once: the first takes the rows' lock, the next finds them retired. Leases that ended
     * before `staleBefore` (processes long gone) are dropped.
     */
    async retireUnused(now: number, staleBefore: number): Promise<Retirement> {
      return atomically(db, async (trx) => {
        const done: Retirement = { retired: [], waiting: [] };
        for (const row of await lockUnretired(trx, { origin: RETIRING })) {
          const { until } = await trx
            .selectFrom('signing_key_use')
            .select((eb) => eb.fn.max('until').as('until'))
            .where('kid', '=', row.kid)
            .executeTakeFirstOrThrow();
          if (until !== null && Number(until) > now) {
            done.waiting.push({ kid: row.kid, until: Number(until) });
            continue;
          }
          const origin = row.private_seed === null ? 'configured' : 'generated';
          await trx
            .updateTable('signing_keys')
            .set({ retired_at: now, origin })
            .where('kid', '=', row.kid)
            .execute();
          await announce(trx, { ...row, origin, retired_at: now }, true);
          await trx.deleteFrom('signing_key_use').where('kid', '=', row.kid).execute();
          done.retired.push(row.kid);
        }
        await trx.deleteFrom('signing_key_use').where('until', '<', staleBefore).execute();
        return done;
      });
    },
  };
}

export type SigningKeyRepository = ReturnType<typeof createSigningKeyRepository>;
