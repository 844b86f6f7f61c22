import { randomInt } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// A frozen copy of accounts/account-pseudonym.ts as it shipped: what this migration wrote must not
// change when that live code does.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function newAccountPseudonym(): string {
  let out = 'o_';
  for (let i = 0; i < 16; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * Signed results counted per account (CONTRACT §12 "Countable").
 *
 * - `accounts.last_result_serial`: the account's last `account_serial`. A signed result takes the
 *   next by updating the account's row inside the transaction that keeps the result and appends
 *   its log entry, so the row lock orders one account's results across processes: serials run
 *   1, 2, 3 … with no gap. Results signed before this migration are not counted: every account
 *   starts at 0, so the log's first result of an account is its result 1.
 * - `accounts.owner_pseudonym` for every account that has none (made after 006 and never sealed):
 *   signed results name their account by it, as seals name their owner, from now on and for good.
 * - `signed_results.account_serial`, unique per account: null on results signed before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('last_result_serial', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const missing = await sql<{ id: string }>`select id from accounts where owner_pseudonym is null`.execute(
    db,
  );
  for (const { id } of missing.rows) {
    await sql`update accounts set owner_pseudonym = ${newAccountPseudonym()} where id = ${id}`.execute(db);
  }

  await db.schema.alterTable('signed_results').addColumn('account_serial', 'bigint').execute();
  await db.schema
    .createIndex('signed_results_account_serial')
    .on('signed_results')
    .columns(['account_id', 'account_serial'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('signed_results_account_serial').execute();
  await db.schema.alterTable('signed_results').dropColumn('account_serial').execute();
  // Pseudonyms stay: a pseudonym once published names its account for good.
  await db.schema.alterTable('accounts').dropColumn('last_result_serial').execute();
}
