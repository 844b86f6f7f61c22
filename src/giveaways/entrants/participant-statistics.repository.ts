import { type Kysely, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';

/** Below this many rows, even a plan that sorts a giveaway's whole list is cheap. */
const STALE_FROM_ROWS = 50_000;
/** Batches smaller than this (a bot's join) never look: their rows are left to autovacuum. */
const LOOK_FROM_ROWS = 1000;

/** Rows written by a transaction not yet committed, by its handle: the store's counters see them at commit. */
const uncommitted = new WeakMap<Kysely<Database>, number>();

/**
 * PostgreSQL plans every read of the participants table by the statistics of its last ANALYZE.
 * After a bulk entry they describe a table a fraction of the size: for a giveaway of a million
 * it then expects a few thousand rows, and each page of the seal's ordered read and of the CSV
 * export scans and sorts the whole list instead of walking its index (0.3–0.4 s a page, 20–30 s
 * for a seal whose read takes under 1 s otherwise). Autovacuum, where it runs, analyzes the table
 * within a minute or so; a seal or an export may come sooner. So once the table holds twice the
 * rows its last ANALYZE counted, the entry that finds it analyzes the table itself, in its own
 * transaction: its own rows count as live there, and ANALYZE samples a fixed number of rows (a
 * few hundred milliseconds at millions). Doubling keeps that to a handful of times over any
 * growth. Called on PostgreSQL after each insert.
 */
export async function refreshStatisticsIfStale(trx: Kysely<Database>, added: number): Promise<void> {
  const pending = (trx.isTransaction ? (uncommitted.get(trx) ?? 0) : 0) + added;
  if (trx.isTransaction) uncommitted.set(trx, pending);
  if (added < LOOK_FROM_ROWS) return;
  const counts = await sql<{ live: number | string | null; counted: number | string | null }>`
    select s.n_live_tup as live, c.reltuples as counted
    from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
    where c.oid = 'participants'::regclass`.execute(trx);
  const row = counts.rows[0];
  const live = Number(row?.live ?? 0) + pending;
  // reltuples is -1 for a table never analyzed nor vacuumed.
  const counted = Math.max(0, Number(row?.counted ?? 0));
  if (live < STALE_FROM_ROWS || live <= 2 * counted) return;
  await sql`analyze participants`.execute(trx);
}
