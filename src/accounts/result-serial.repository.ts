import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.ts';
import { newAccountPseudonym } from './account-pseudonym.ts';

/** An account's numbering of its signed results (CONTRACT §12 `account_serial`, `account`). */
export function createResultSerialRepository(db: Kysely<Database>) {
  return {
    /**
     * The account's next serial (1, 2, 3 …) and its pseudonym, given now if it had none. Run on a
     * repository bound to the transaction that keeps the result: the account's row stays locked
     * until it ends, so its serials follow its commits with no gap and no repeat whichever process
     * signs, and a rollback gives the serial back.
     */
    async next(accountId: string): Promise<{ accountSerial: number; account: string }> {
      const row = await db
        .updateTable('accounts')
        .set({
          last_result_serial: sql`last_result_serial + 1`,
          owner_pseudonym: sql`coalesce(owner_pseudonym, ${newAccountPseudonym()})`,
        })
        .where('id', '=', accountId)
        .returning(['last_result_serial', 'owner_pseudonym'])
        .executeTakeFirst();
      if (!row?.owner_pseudonym) throw new Error(`no account ${accountId} to count a signed result for`);
      return { accountSerial: Number(row.last_result_serial), account: row.owner_pseudonym };
    },
  };
}
