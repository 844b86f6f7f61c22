import { type Compilable, CompiledQuery, type Insertable, type Kysely, PostgresAdapter } from 'kysely';
import {
  createUsageLeaseRepository,
  type LeaseKey,
  POSTGRES_REQUESTS_TODAY_BEFORE,
  POSTGRES_SPEND_CTE,
} from '../accounts/usage-lease.repository.ts';
import { createGroupCommit } from '../store/group-commit.ts';
import { PREPARED_MARK, prepareQuery, type Slot } from '../store/prepared-query.ts';
import type { Database, OperationsTable } from '../store/schema.ts';
import { createUnitOfWork } from '../store/unit-of-work.ts';

/** The block whose place a request spends: the key, the UTC day and this process (quota-blocks.ts). */
export type Spend = LeaseKey;

/** The operations record as written: every column given. */
export type RecordRow = Required<Insertable<OperationsTable>>;

interface Counted {
  row: RecordRow;
  spend: Spend;
}

const COLUMNS = [
  ['request_id', 'text'],
  ['x_request_id', 'text'],
  ['account_id', 'text'],
  ['key_id', 'text'],
  ['endpoint', 'text'],
  ['source', 'text'],
  ['source_reference', 'text'],
  ['source_fetched_at', 'bigint'],
  ['created_at', 'bigint'],
  ['operation_count', 'int'],
] as const satisfies readonly (readonly [keyof RecordRow, string])[];

/**
 * PostgreSQL commits a whole batch in one statement, one round trip: its records inserted from
 * one array per column, and each block's `used` raised by its requests in the same statement
 * (POSTGRES_SPEND_CTE, $1–$4). A data-modifying CTE is atomic like any single statement, so
 * a count never commits without its record, nor a record without its count. It answers each
 * key's requests today as they were before the batch, so each request gets its own count.
 */
const POSTGRES_BATCH = `${PREPARED_MARK}with ${POSTGRES_SPEND_CTE}, recorded as (
  insert into operations (${COLUMNS.map(([name]) => name).join(', ')})
  select * from unnest(${COLUMNS.map(([, type], i) => `$${i + 5}::${type}[]`).join(', ')})
)
${POSTGRES_REQUESTS_TODAY_BEFORE}`;

const blockId = (spend: Spend) => `${spend.keyId}\n${spend.day}\n${spend.holder}`;
const dayId = (spend: Spend) => `${spend.keyId}\n${spend.day}`;

/** Each block's requests in a batch: one count per key, day and holder. */
function spendsOf(items: Counted[]) {
  const spends = new Map<string, Spend & { n: number }>();
  for (const { spend } of items) {
    const seen = spends.get(blockId(spend));
    if (seen) seen.n++;
    else spends.set(blockId(spend), { ...spend, n: 1 });
  }
  return [...spends.values()];
}

/** Numbers the batch's requests of each key and day on from the count before the batch. */
function countsOf(items: Counted[], before: Map<string, number>): number[] {
  const next = new Map(before);
  return items.map(({ spend }) => {
    const count = (next.get(dayId(spend)) ?? 0) + 1;
    next.set(dayId(spend), count);
    return count;
  });
}

/**
 * The records of counted requests with their counts, in group commit (store/group-commit.ts):
 * the requests that reach it while a batch commits go together in the next, each answered only
 * after its own batch committed. A request's count is its block's place (quota-blocks.ts), so a
 * batch touches only this process's lease rows: processes never wait on each other here. Each
 * request resolves to its key's requests today, itself included.
 */
export function createCountedRecords(
  db: Kysely<Database>,
  recordStatement: (slot: Slot) => Compilable<unknown>,
): (row: RecordRow, spend: Spend) => Promise<number> {
  let write: (items: Counted[]) => Promise<number[]>;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    write = async (items) => {
      const spends = spendsOf(items);
      const parameters: unknown[] = [
        spends.map((s) => s.keyId),
        spends.map((s) => s.day),
        spends.map((s) => s.holder),
        spends.map((s) => s.n),
        ...COLUMNS.map(([name]) => items.map((item) => item.row[name])),
      ];
      const { rows } = await db.executeQuery<{ key_id: string; day: string; before: number }>(
        CompiledQuery.raw(POSTGRES_BATCH, parameters),
      );
      return countsOf(items, new Map(rows.map((r) => [`${r.key_id}\n${r.day}`, r.before])));
    };
  } else {
    // SQLite: one transaction, the unit of work of the batch; its statements are prepared once.
    const record = prepareQuery(db, recordStatement);
    const leases = createUsageLeaseRepository(db);
    const uow = createUnitOfWork(db, (trx) => ({
      record: (row: RecordRow) => record(row as unknown as Record<string, unknown>, trx),
      spend: (spend: Spend, n: number) => leases.spend(spend, n, trx),
      requestsToday: (spend: Spend) => leases.requestsToday(spend, trx),
    }));
    write = (items) =>
      uow.run(async (tx) => {
        for (const item of items) await tx.record(item.row);
        const added = new Map<string, Spend & { n: number }>();
        for (const spend of spendsOf(items)) {
          await tx.spend(spend, spend.n);
          const day = added.get(dayId(spend));
          if (day) day.n += spend.n;
          else added.set(dayId(spend), { ...spend });
        }
        const before = new Map<string, number>();
        for (const [id, day] of added) before.set(id, (await tx.requestsToday(day)) - day.n);
        return countsOf(items, before);
      });
  }
  const join = createGroupCommit(write);
  return (row, spend) => join({ row, spend });
}
