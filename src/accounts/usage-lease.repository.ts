import { CompiledQuery, type Kysely, PostgresAdapter, sql } from 'kysely';
import { PREPARED_MARK, prepareQuery, type Slot } from '../store/prepared-query.ts';
import type { Database } from '../store/schema.ts';
import { atomically } from '../store/unit-of-work.ts';
import { requestsToday } from './usage.repository.ts';

/** A process's block of one key's allowance for one UTC day (migration 019). */
export interface LeaseKey {
  keyId: string;
  day: string;
  holder: string;
}

export interface LeaseRequest extends LeaseKey {
  limit: number;
  /** Requests waiting for this block: taken whole when the allowance has room for them. */
  least: number;
  /** The block asked for beyond them, when far from the limit. */
  want: number;
  at: number;
}

export interface Lease {
  /** Places taken; 0 when the limit is reached. */
  granted: number;
  /** The key's requests today as the statement saw them (spent places only). */
  requestsToday: number;
}

/** Of what remains, at most this share goes into one block, so blocks shrink near the limit. */
export const BLOCK_SHARE = 20;

/**
 * The block offered when `remaining` places are left: whatever is waiting, or else `want`
 * capped at 1/BLOCK_SHARE of what remains, and never more than remains. Near the limit a block is
 * exactly what waits, spent at once: no process sits on places another could serve.
 */
export const offer = (remaining: number, least: number, want: number) =>
  Math.min(remaining, Math.max(least, Math.min(want, Math.floor(remaining / BLOCK_SHARE))));

/**
 * PostgreSQL takes a block in one statement (one round trip, the key's row locked only while it
 * runs): the row locked unless the limit is already reached (a refusal locks nothing), the offer
 * computed as `offer` does, added to the count unless that passes the limit, and to this
 * process's lease row. `offered` with no `count` means the day's row was created by another
 * process between the read and the insert: the caller asks again.
 */
const POSTGRES_LEASE = `${PREPARED_MARK}with locked as (
  select count from usage_daily where key_id = $1 and day = $2 and count < $3::int for update
), current as (
  select count from usage_daily where key_id = $1 and day = $2
), offered as (
  select case when exists (select 1 from current) and not exists (select 1 from locked) then 0
    else least($3::int - c, greatest($4::int, least($5::int, ($3::int - c) / ${BLOCK_SHARE}))) end as n
  from (select coalesce((select count from locked), 0) as c) as seen
), taken as (
  insert into usage_daily as u (key_id, day, count)
  select $1, $2, n from offered where n > 0
  on conflict (key_id, day) do update set count = u.count + excluded.count
  where u.count + excluded.count <= $3::int
  returning u.count
), held as (
  insert into usage_leases as l (key_id, day, holder, granted, used, leased_at)
  select $1, $2, $6, offered.n, 0, $7 from offered, taken
  on conflict (key_id, day, holder) do update
  set granted = l.granted + excluded.granted, leased_at = excluded.leased_at
)
select offered.n as offered, taken.count as count, (select count from current) as current,
  (select coalesce(sum(granted - used), 0) from usage_leases where key_id = $1 and day = $2) as held
from offered left join taken on true`;

/**
 * Raises `used` of lease rows in the statement that commits what the requests pay for: keys,
 * days, holders and counts as four arrays ($1–$4), of the keys `only` admits (an SQL condition on
 * `s.key_id`). A clause of a PostgreSQL data-modifying CTE; the statement that carries it commits
 * both at once.
 */
export const postgresSpendCte = (only: string) => `spent as (
  update usage_leases as l set used = l.used + s.n
  from unnest($1::text[], $2::text[], $3::text[], $4::int[]) as s(key_id, day, holder, n)
  where l.key_id = s.key_id and l.day = s.day and l.holder = s.holder and ${only}
)`;

/**
 * The requests today of each key and day of $1 and $2 (null without a row), as the statement that
 * carries it saw them before its own changes (a data-modifying CTE's rows are not visible to its
 * own statement), with `columns` of what `join` adds beside them.
 */
export const postgresRequestsTodayBefore = (
  columns: string,
  join: string,
) => `select k.key_id, k.day, ${columns},
  u.count - coalesce((select sum(l.granted - l.used) from usage_leases l
    where l.key_id = k.key_id and l.day = k.day), 0) as before
from (select distinct * from unnest($1::text[], $2::text[]) as k(key_id, day)) k
left join usage_daily u on u.key_id = k.key_id and u.day = k.day
${join}`;

interface LeaseRow {
  offered: number;
  count: number | null;
  current: number | null;
  held: number;
}

export function createUsageLeaseRepository(db: Kysely<Database>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const key = (slot: Slot) => ({
    key_id: slot<string>('key_id'),
    day: slot<string>('day'),
    holder: slot<string>('holder'),
  });
  const ensureDay = prepareQuery(db, (slot) =>
    db
      .insertInto('usage_daily')
      .values({ key_id: slot('key_id'), day: slot('day'), count: 0 })
      .onConflict((oc) => oc.columns(['key_id', 'day']).doNothing()),
  );
  const today = prepareQuery(db, (slot) =>
    db
      .selectFrom('usage_daily')
      .select((eb) => requestsToday(eb).as('count'))
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day')),
  );
  const countOf = prepareQuery(db, (slot) =>
    db
      .selectFrom('usage_daily')
      .select('count')
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day')),
  );
  const addCount = prepareQuery(db, (slot) =>
    db
      .updateTable('usage_daily')
      .set({ count: sql`count + ${slot<number>('n')}` })
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day')),
  );
  const hold = prepareQuery(db, (slot) =>
    db
      .insertInto('usage_leases')
      .values({ ...key(slot), granted: slot('n'), used: 0, leased_at: slot('at') })
      .onConflict((oc) =>
        oc.columns(['key_id', 'day', 'holder']).doUpdateSet({
          granted: sql`usage_leases.granted + excluded.granted`,
          leased_at: sql`excluded.leased_at`,
        }),
      ),
  );
  const shrink = prepareQuery(db, (slot) =>
    db
      .updateTable('usage_leases')
      .set({ granted: sql`granted - ${slot<number>('n')}` })
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day'))
      .where('holder', '=', slot<string>('holder'))
      .where(sql<boolean>`granted - used >= ${slot<number>('n')}`),
  );
  const settled = prepareQuery(db, (slot) =>
    db
      .deleteFrom('usage_leases')
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day'))
      .where('holder', '=', slot<string>('holder'))
      .where(sql<boolean>`granted = used`),
  );
  const addUsed = prepareQuery(db, (slot) =>
    db
      .updateTable('usage_leases')
      .set({ used: sql`used + ${slot<number>('n')}` })
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day'))
      .where('holder', '=', slot<string>('holder'))
      .where(sql<boolean>`used + ${slot<number>('n')} between 0 and granted`),
  );

  async function leasePostgres(r: LeaseRequest): Promise<Lease> {
    const parameters = [r.keyId, r.day, r.limit, r.least, r.want, r.holder, r.at];
    // Another try only when the day's first row was inserted by another process meanwhile.
    for (let tries = 0; tries < 5; tries++) {
      const { rows } = await db.executeQuery<LeaseRow>(CompiledQuery.raw(POSTGRES_LEASE, parameters));
      const { offered, count, current, held } = rows[0];
      // `held` is read before this statement's own block was added to it.
      if (count !== null) return { granted: offered, requestsToday: count - held - offered };
      if (offered <= 0) return { granted: 0, requestsToday: (current ?? 0) - held };
    }
    throw new Error(`no block could be taken for ${r.keyId} on ${r.day}`);
  }

  async function requestsTodayOf(k: { keyId: string; day: string }, handle = db): Promise<number> {
    return (await today({ key_id: k.keyId, day: k.day }, handle)).rows[0]?.count ?? 0;
  }

  /** SQLite writes one transaction at a time, so the read and the writes after it cannot interleave. */
  function leaseSqlite(r: LeaseRequest): Promise<Lease> {
    const values = { key_id: r.keyId, day: r.day, holder: r.holder, at: r.at };
    return atomically(db, async (trx) => {
      await ensureDay(values, trx);
      const count = (await countOf(values, trx)).rows[0]?.count ?? 0;
      const n = offer(r.limit - count, r.least, r.want);
      if (n > 0) {
        await addCount({ ...values, n }, trx);
        await hold({ ...values, n }, trx);
      }
      return { granted: Math.max(0, n), requestsToday: await requestsTodayOf(r, trx) };
    });
  }

  return {
    /** Takes a block of the key's allowance for this process (see `offer`). */
    lease: (request: LeaseRequest): Promise<Lease> =>
      postgres ? leasePostgres(request) : leaseSqlite(request),

    /** Gives `n` unspent places back to the key's allowance; the row goes once all it holds is spent. */
    async giveBack(lease: LeaseKey, n: number): Promise<void> {
      const values = { key_id: lease.keyId, day: lease.day, holder: lease.holder, n };
      await atomically(db, async (trx) => {
        const shrunk = await shrink(values, trx);
        if (Number(shrunk.numAffectedRows ?? 0) === 0) return;
        await addCount({ ...values, n: -n }, trx);
        await settled(values, trx);
      });
    },

    /** The key's requests today (inside the caller's transaction when `handle` is one). */
    requestsToday: requestsTodayOf,

    /**
     * Counts `n` places of the block as spent (negative: gives spent places back, for a request
     * answered with a server error after its count committed). Inside the caller's transaction
     * when `handle` is one. False when the row does not hold them.
     */
    async spend(lease: LeaseKey, n: number, handle: Kysely<Database> = db): Promise<boolean> {
      const result = await addUsed({ key_id: lease.keyId, day: lease.day, holder: lease.holder, n }, handle);
      return Number(result.numAffectedRows ?? 0) > 0;
    },
  };
}

export type UsageLeaseRepository = ReturnType<typeof createUsageLeaseRepository>;
