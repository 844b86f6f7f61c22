import { type Compilable, CompiledQuery, type Insertable, type Kysely, PostgresAdapter } from 'kysely';
import { type KeyStanding, refusalOf } from '../accounts/key-refusal.ts';
import { createKeyStandingRepository, POSTGRES_STANDING_CTE } from '../accounts/key-standing.repository.ts';
import {
  createUsageLeaseRepository,
  type LeaseKey,
  postgresRequestsTodayBefore,
  postgresSpendCte,
} from '../accounts/usage-lease.repository.ts';
import type { AppError } from '../shared/errors.ts';
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
const NAMES = COLUMNS.map(([name]) => name).join(', ');

/**
 * PostgreSQL commits a whole batch in one statement, one round trip: each key's revocation and
 * plan read (POSTGRES_STANDING_CTE), the records of the keys that may do business inserted from
 * one array per column, and their blocks' `used` raised by their requests in the same statement
 * (postgresSpendCte, $1–$4). A data-modifying CTE is atomic like any single statement, so a
 * count never commits without its record, nor a record without its count. It answers each key's
 * standing and requests today as they were before the batch, so each request gets its own count.
 */
const MAY_DO_BUSINESS = 'key_id in (select id from standing where ok)';
const POSTGRES_BATCH = `${PREPARED_MARK}with ${POSTGRES_STANDING_CTE},
${postgresSpendCte(`s.${MAY_DO_BUSINESS}`)}, recorded as (
  insert into operations (${NAMES})
  select * from unnest(${COLUMNS.map(([, type], i) => `$${i + 5}::${type}[]`).join(', ')}) as r(${NAMES})
  where r.${MAY_DO_BUSINESS}
)
${postgresRequestsTodayBefore('standing.plan, standing.revoked', 'left join standing on standing.id = k.key_id')}`;

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

/** A request's count, or why its key may no longer do business (its record is not written). */
type Outcome = number | AppError;

/**
 * Numbers the batch's requests of each key and day on from the count before the batch; the
 * requests of a refused key get its refusal instead.
 */
function countsOf(items: Counted[], before: Map<string, number>, refused: Map<string, AppError>): Outcome[] {
  const next = new Map(before);
  return items.map(({ spend }) => {
    const refusal = refused.get(spend.keyId);
    if (refusal) return refusal;
    const count = (next.get(dayId(spend)) ?? 0) + 1;
    next.set(dayId(spend), count);
    return count;
  });
}

interface BatchRow {
  key_id: string;
  day: string;
  /** Null when no key has the id. */
  plan: KeyStanding['plan'] | null;
  revoked: boolean | null;
  before: number | null;
}

/**
 * The records of counted requests with their counts, in group commit (store/group-commit.ts):
 * the requests that reach it while a batch commits go together in the next, each answered only
 * after its own batch committed. A request's count is its block's place (quota-blocks.ts), so a
 * batch touches only this process's lease rows: processes never wait on each other here. The
 * batch reads each key's revocation and plan where it commits (on SQLite just before), so a key
 * refused since its request was authenticated (from memory, auth.ts) records and counts nothing:
 * its request rejects with the key's refusal. Else each request resolves to its key's requests
 * today, itself included.
 */
export function createCountedRecords(
  db: Kysely<Database>,
  recordStatement: (slot: Slot) => Compilable<unknown>,
): (row: RecordRow, spend: Spend) => Promise<number> {
  let write: (items: Counted[]) => Promise<Outcome[]>;
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
      const { rows } = await db.executeQuery<BatchRow>(CompiledQuery.raw(POSTGRES_BATCH, parameters));
      const before = new Map<string, number>();
      const refused = new Map<string, AppError>();
      for (const r of rows) {
        if (r.before !== null) before.set(`${r.key_id}\n${r.day}`, r.before);
        const refusal = refusalOf(
          r.plan === null ? undefined : { plan: r.plan, revoked: r.revoked === true },
        );
        if (refusal) refused.set(r.key_id, refusal);
      }
      return countsOf(items, before, refused);
    };
  } else {
    // SQLite: one transaction, the unit of work of the batch; its statements are prepared once.
    const record = prepareQuery(db, recordStatement);
    const leases = createUsageLeaseRepository(db);
    const keys = createKeyStandingRepository(db);
    const uow = createUnitOfWork(db, (trx) => ({
      record: (row: RecordRow) => record(row as unknown as Record<string, unknown>, trx),
      spend: (spend: Spend, n: number) => leases.spend(spend, n, trx),
      requestsToday: (spend: Spend) => leases.requestsToday(spend, trx),
    }));
    write = async (items) => {
      // The keys' standing is read just before the batch's transaction, not inside it: on SQLite a
      // transaction that reads first cannot write once another process (the CLI revoking a key)
      // has committed since its read. A change that commits after this read applies from the next
      // batch, as it would to a request whose key was read when it arrived.
      const refused = new Map<string, AppError>();
      for (const keyId of new Set(items.map((item) => item.spend.keyId))) {
        const refusal = await keys.refusal(keyId);
        if (refusal) refused.set(keyId, refusal);
      }
      return uow.run(async (tx) => {
        const admitted = refused.size === 0 ? items : items.filter((item) => !refused.has(item.spend.keyId));
        for (const item of admitted) await tx.record(item.row);
        const added = new Map<string, Spend & { n: number }>();
        for (const spend of spendsOf(admitted)) {
          await tx.spend(spend, spend.n);
          const day = added.get(dayId(spend));
          if (day) day.n += spend.n;
          else added.set(dayId(spend), { ...spend });
        }
        const before = new Map<string, number>();
        for (const [id, day] of added) before.set(id, (await tx.requestsToday(day)) - day.n);
        return countsOf(items, before, refused);
      });
    };
  }
  const join = createGroupCommit(write);
  return async (row, spend) => {
    const outcome = await join({ row, spend });
    if (typeof outcome !== 'number') throw outcome;
    return outcome;
  };
}
