import type { Kysely } from 'kysely';
import { prepareQuery } from '../store/prepared-query.ts';
import type { AccountsTable, ApiKeysTable, Database } from '../store/schema.ts';
import type { Plan } from './plans.ts';

export type AccountRow = Omit<AccountsTable, 'plan' | 'owner_pseudonym' | 'last_result_serial'> & {
  plan: Plan;
  owner_pseudonym?: string | null;
};
export type KeyRow = ApiKeysTable;

export interface KeyWithAccount extends KeyRow {
  plan: Plan;
  telegram_id: number | null;
}

export function createAccountRepository(db: Kysely<Database>) {
  // Every authenticated request reads its key, built once; a random request whose key this
  // process already knows reads its revocation and plan in its record's commit instead
  // (key-standing.repository.ts), so a revocation applies from the next request either way.
  const keyByPrefix = prepareQuery<KeyWithAccount>(db, (slot) =>
    db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .selectAll('api_keys')
      .select(['accounts.plan', 'accounts.telegram_id'])
      .where('api_keys.prefix', '=', slot<string>('prefix')),
  );

  return {
    async insertAccount(row: AccountRow): Promise<void> {
      await db.insertInto('accounts').values(row).execute();
    },

    /** Creates the account of a Telegram user unless it exists; returns the stored one. */
    async ensureTelegramAccount(row: AccountRow): Promise<{ account: AccountRow; created: boolean }> {
      const inserted = await db
        .insertInto('accounts')
        .values(row)
        .onConflict((oc) => oc.column('telegram_id').doNothing())
        .executeTakeFirst();
      const account = await this.findByTelegramId(row.telegram_id!);
      return { account: account!, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
    },

    async findByTelegramId(telegramId: number): Promise<AccountRow | undefined> {
      const row = await db
        .selectFrom('accounts')
        .selectAll()
        .where('telegram_id', '=', telegramId)
        .executeTakeFirst();
      return row as AccountRow | undefined;
    },

    /** The account's public pseudonym, assigned once (`candidate` when it has none yet). */
    async ownerPseudonym(accountId: string, candidate: string): Promise<string> {
      await db
        .updateTable('accounts')
        .set({ owner_pseudonym: candidate })
        .where('id', '=', accountId)
        .where('owner_pseudonym', 'is', null)
        .execute();
      const row = await db
        .selectFrom('accounts')
        .select('owner_pseudonym')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      return row.owner_pseudonym!;
    },

    /** The account's public pseudonym as it stands, without giving one: for pages that only read. */
    async pseudonymOf(accountId: string): Promise<string | null> {
      const row = await db
        .selectFrom('accounts')
        .select('owner_pseudonym')
        .where('id', '=', accountId)
        .executeTakeFirst();
      return row?.owner_pseudonym ?? null;
    },

    async setPlan(accountId: string, plan: Plan): Promise<void> {
      await db.updateTable('accounts').set({ plan }).where('id', '=', accountId).execute();
    },

    async insertKey(row: KeyRow): Promise<void> {
      await db.insertInto('api_keys').values(row).execute();
    },

    async findKeyByPrefix(prefix: string): Promise<KeyWithAccount | undefined> {
      return (await keyByPrefix({ prefix })).rows[0];
    },

    async listKeys(accountId?: string): Promise<KeyWithAccount[]> {
      let query = db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .selectAll('api_keys')
        .select(['accounts.plan', 'accounts.telegram_id'])
        .orderBy('api_keys.created_at')
        .orderBy('api_keys.prefix');
      if (accountId) query = query.where('api_keys.account_id', '=', accountId);
      return (await query.execute()) as KeyWithAccount[];
    },

    /** Returns false when no unrevoked key has that prefix. */
    async revokeKey(prefix: string, at: number, accountId?: string): Promise<boolean> {
      let query = db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('prefix', '=', prefix)
        .where('revoked_at', 'is', null);
      if (accountId) query = query.where('account_id', '=', accountId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async touchKey(keyId: string, at: number): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
