import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Writes that must commit together across modules (entrants, seal, jobs; a draw's certificate,
 * status and operation record) run through one of these: the work receives repositories bound
 * to one transaction instead of building them from a raw handle or threading it through calls.
 */
export interface UnitOfWork<R> {
  /** Commits when `work` resolves, rolls back when it throws. */
  run<T>(work: (repos: R) => Promise<T>): Promise<T>;
}

export function createUnitOfWork<R>(
  db: Kysely<Database>,
  bind: (handle: Kysely<Database>) => R,
): UnitOfWork<R> {
  return { run: (work) => db.transaction().execute((trx) => work(bind(trx))) };
}

/**
 * A repository's own write of several statements, committed as one: inside the caller's
 * transaction when the repository is bound to one, else in a transaction of its own.
 */
export function atomically<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
