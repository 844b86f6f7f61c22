import type { Insertable, Kysely, Selectable } from 'kysely';
import { insertInChunks } from '../store/chunked-insert.ts';
import type { Slot } from '../store/prepared-query.ts';
import { prepareBatchedWrite, prepareQuery } from '../store/prepared-query.ts';
import type { Database, OperationsTable } from '../store/schema.ts';
import { createCountedRecords, type Spend } from './counted-record.repository.ts';
import { baseOf } from './operation-ids.ts';

export type { Spend } from './counted-record.repository.ts';

/** One request's record; `operation_count` defaults to 1 (a draw, or a row from before 009). */
export type OperationRow = Insertable<OperationsTable>;
export type OperationRecord = Selectable<OperationsTable>;

/** SQLite allows 32 766 bound values per statement; 10 columns × 500 rows stays far below. */
const ROWS_PER_INSERT = 500;

/** `batchDb`: where counted records are written in group commit (Store.batchDb). */
export function createOperationRepository(db: Kysely<Database>, batchDb: Kysely<Database> = db) {
  const recordStatement = (slot: Slot) =>
    db.insertInto('operations').values({
      request_id: slot('request_id'),
      x_request_id: slot('x_request_id'),
      account_id: slot('account_id'),
      key_id: slot('key_id'),
      endpoint: slot('endpoint'),
      source: slot('source'),
      source_reference: slot('source_reference'),
      source_fetched_at: slot('source_fetched_at'),
      created_at: slot('created_at'),
      operation_count: slot('operation_count'),
    });
  const insertRecord = prepareBatchedWrite(db, recordStatement);
  const insertCounted = createCountedRecords(batchDb, recordStatement);
  // The id itself (a record's first id, a draw's, or a row from before 009) or its base.
  const findEither = prepareQuery(db, (slot) =>
    db
      .selectFrom('operations')
      .selectAll()
      .where('request_id', 'in', [slot<string>('id'), slot<string>('base')]),
  );

  return {
    /** The record of one request: one statement, prepared once. */
    async insert(row: Required<OperationRow>): Promise<void> {
      await insertRecord(row);
    },

    /**
     * The record of one request with its count (the place `spend` names in its block), committed
     * together in group commit (counted-record.repository.ts). Resolves once committed, to the
     * key's requests today with this one.
     */
    insertCounted(row: Required<OperationRow>, spend: Spend): Promise<number> {
      return insertCounted(row, spend);
    },

    async insertMany(rows: OperationRow[], trx: Kysely<Database> = db): Promise<void> {
      await insertInChunks(trx, 'operations', rows, ROWS_PER_INSERT);
    },

    /** The record naming the operation `id`, with the operation's index in it. */
    async find(id: string): Promise<{ record: OperationRecord; index: number } | undefined> {
      const parsed = baseOf(id);
      if (!parsed) return undefined;
      const { rows } = await findEither({ id, base: parsed.baseId });
      const exact = rows.find((r) => r.request_id === id);
      if (exact) return { record: exact, index: 0 };
      const record = rows.find((r) => r.request_id === parsed.baseId);
      if (record && parsed.index < record.operation_count) return { record, index: parsed.index };
      return undefined;
    },
  };
}

export type OperationRepository = ReturnType<typeof createOperationRepository>;
