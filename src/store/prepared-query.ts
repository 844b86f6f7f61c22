import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Marks a statement the PostgreSQL pool prepares once per connection and then only binds
 * (postgres.ts); SQLite's adapter keeps every statement prepared by its text anyway.
 */
export const PREPARED_MARK = '/* prepared */ ';

const SLOT = '\u0000slot:';

/** A placeholder for a value given at run time; typed as the column it stands for. */
export type Slot = <T>(name: string) => T;

export type PreparedQuery<R> = (
  values: Record<string, unknown>,
  handle?: Kysely<Database>,
) => Promise<QueryResult<R>>;

/**
 * Builds a query once, with named slots where request values go, and returns a runner that
 * only binds: nothing on a hot path builds or compiles a query per request. The query is built
 * on first use, so repositories made for each unit of work pay nothing for queries they never
 * run. Values the builder wrote as literals stay as they are.
 */
export function prepareQuery<R>(
  db: Kysely<Database>,
  build: (slot: Slot) => Compilable<R>,
): PreparedQuery<R> {
  let statement: { sql: string; binding: ({ slot: string } | { value: unknown })[] } | undefined;
  const compile = () => {
    const compiled = build(<T>(name: string) => `${SLOT}${name}` as T).compile();
    const binding = compiled.parameters.map((p): { slot: string } | { value: unknown } =>
      typeof p === 'string' && p.startsWith(SLOT) ? { slot: p.slice(SLOT.length) } : { value: p },
    );
    return { sql: PREPARED_MARK + compiled.sql, binding };
  };
  return (values, handle = db) => {
    statement ??= compile();
    const parameters = statement.binding.map((b) => {
      if (!('slot' in b)) return b.value;
      const value = values[b.slot];
      if (value === undefined) throw new Error(`no value for the slot ${b.slot}`);
      return value;
    });
    return handle.executeQuery<R>(CompiledQuery.raw(statement.sql, parameters));
  };
}

interface Pending {
  run: (handle: Kysely<Database>) => Promise<QueryResult<unknown>>;
  resolve: (result: QueryResult<unknown>) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for single statements outside the hot path of the random endpoints (daily-limit
 * counts of the other endpoints, records written without a count): the statements that reach
 * it in one turn of the event loop run in one transaction, so a commit (and, on SQLite, each page
 * the WAL takes) is paid once per batch instead of once per statement. A statement still
 * resolves only after its commit, so an answer never gets ahead of its write. When one statement
 * fails it takes its batch's transaction with it: the batch then runs again item by item, so
 * only its own request sees the error. (The random endpoints' records and counts have a batcher
 * of their own, store/group-commit.ts, that writes a batch as one statement on PostgreSQL.)
 */
function createBatcher(db: Kysely<Database>) {
  let pending: Pending[] = [];

  const alone = (item: Pending) => item.run(db).then(item.resolve, item.reject);

  const flush = async () => {
    const batch = pending;
    pending = [];
    if (batch.length === 1) {
      alone(batch[0]);
      return;
    }
    try {
      const results = await db.transaction().execute(async (trx) => {
        const out: QueryResult<unknown>[] = [];
        for (const item of batch) out.push(await item.run(trx));
        return out;
      });
      for (const [i, item] of batch.entries()) item.resolve(results[i]);
    } catch {
      for (const item of batch) alone(item);
    }
  };

  return <R>(run: (handle: Kysely<Database>) => Promise<QueryResult<R>>): Promise<QueryResult<R>> =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ run, resolve: resolve as Pending['resolve'], reject });
    });
}

const batchers = new WeakMap<Kysely<Database>, ReturnType<typeof createBatcher>>();

/** A prepared write that joins the group commit of `db` (see createBatcher). */
export function prepareBatchedWrite<R>(
  db: Kysely<Database>,
  build: (slot: Slot) => Compilable<R>,
): (values: Record<string, unknown>) => Promise<QueryResult<R>> {
  const query = prepareQuery(db, build);
  let join = batchers.get(db);
  if (!join) {
    join = createBatcher(db);
    batchers.set(db, join);
  }
  const batch = join;
  return (values) => batch((handle) => query(values, handle));
}
