import { type Compilable, CompiledQuery, type Insertable, type Kysely, PostgresAdapter } from 'kysely';
import { countStatement } from '../accounts/usage.repository.ts';
import { joinGroupCommit, PREPARED_MARK, prepareQuery, type Slot } from '../store/prepared-query.ts';
import type { Database, OperationsTable } from '../store/schema.ts';

/** Where a request's count goes when it is written with its record: the key, the UTC day, its limit. */
export interface Meter {
  keyId: string;
  day: string;
  limit: number;
}

/** The operations record as written: every column given. */
export type RecordRow = Required<Insertable<OperationsTable>>;

const RECORD_COLUMNS = [
  'request_id',
  'x_request_id',
  'account_id',
  'key_id',
  'endpoint',
  'source',
  'source_reference',
  'source_fetched_at',
  'created_at',
  'operation_count',
] as const satisfies readonly (keyof RecordRow)[];

/**
 * PostgreSQL does both in one statement, so one round trip: the conditional upsert of the count
 * (the same one `countStatement` builds) feeds the record's insert, which writes a row only
 * when the count returned one. A data-modifying CTE is atomic like any single statement.
 */
const POSTGRES_COUNT_AND_RECORD = `${PREPARED_MARK}with counted as (
  insert into usage_daily (key_id, day, count) values ($1, $2, 1)
  on conflict (key_id, day) do update set count = usage_daily.count + 1
  where usage_daily.count < $3
  returning count
), recorded as (
  insert into operations (${RECORD_COLUMNS.join(', ')})
  select ${RECORD_COLUMNS.map((_, i) => `$${i + 4}`).join(', ')} from counted
)
select count from counted`;

/**
 * The daily-limit count and the record of one request, committed together: the record exists
 * exactly when the request was counted. SQLite has no data-modifying CTE; there the two
 * statements run as one item of the group commit, which commits them in one transaction.
 */
export function createCountedRecord(
  db: Kysely<Database>,
  recordStatement: (slot: Slot) => Compilable<unknown>,
) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return async (row: RecordRow, meter: Meter): Promise<number | undefined> => {
      const parameters = [meter.keyId, meter.day, meter.limit, ...RECORD_COLUMNS.map((c) => row[c])];
      const result = await db.executeQuery<{ count: number }>(
        CompiledQuery.raw(POSTGRES_COUNT_AND_RECORD, parameters),
      );
      return result.rows[0]?.count;
    };
  }
  const count = prepareQuery(db, (slot) => countStatement(db, slot));
  const record = prepareQuery(db, recordStatement);
  return async (row: RecordRow, meter: Meter): Promise<number | undefined> => {
    const counted = await joinGroupCommit(db, async (handle) => {
      const result = await count({ key_id: meter.keyId, day: meter.day, limit: meter.limit }, handle);
      if (result.rows.length > 0) await record(row as unknown as Record<string, unknown>, handle);
      return result;
    });
    return counted.rows[0]?.count;
  };
}

/**
 * The daily-limit count of one request inside a transaction the caller runs (a signed result,
 * whose count, record, serial and stored response commit together). The new count, or undefined
 * when the limit was reached.
 */
export function createCountInTransaction(db: Kysely<Database>) {
  const count = prepareQuery(db, (slot) => countStatement(db, slot));
  return async (meter: Meter, trx: Kysely<Database>): Promise<number | undefined> => {
    const result = await count({ key_id: meter.keyId, day: meter.day, limit: meter.limit }, trx);
    return result.rows[0]?.count;
  };
}
