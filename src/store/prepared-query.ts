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
 * only binds: nothing on a hot path builds or compiles a query per request. Values the builder
 * wrote as literals stay as they are.
 */
export function prepareQuery<R>(
  db: Kysely<Database>,
  build: (slot: Slot) => Compilable<R>,
): PreparedQuery<R> {
  const compiled = build(<T>(name: string) => `${SLOT}${name}` as T).compile();
  const binding = compiled.parameters.map((p): { slot: string } | { value: unknown } =>
    typeof p === 'string' && p.startsWith(SLOT) ? { slot: p.slice(SLOT.length) } : { value: p },
  );
  const sql = PREPARED_MARK + compiled.sql;
  return (values, handle = db) => {
    const parameters = binding.map((b) => {
      if (!('slot' in b)) return b.value;
      const value = values[b.slot];
      if (value === undefined) throw new Error(`no value for the slot ${b.slot}`);
      return value;
    });
    return handle.executeQuery<R>(CompiledQuery.raw(sql, parameters));
  };
}
