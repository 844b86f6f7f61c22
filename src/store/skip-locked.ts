import { type Kysely, PostgresAdapter, type SelectQueryBuilder } from 'kysely';

/**
 * Lets several claimers pick rows from one queue without waiting on each other or taking the
 * same row twice. PostgreSQL locks each picked row and skips rows another transaction holds,
 * so claimers in several processes each get different rows. SQLite has no row locks and does
 * not accept the clause: it runs one writer at a time, so a claim made in a single statement
 * already sees every earlier claim and no other can interleave with it.
 */
export function skipLocked<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate().skipLocked() : query;
}
