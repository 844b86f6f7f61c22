import type { Kysely } from 'kysely';
import type { AppError } from '../shared/errors.ts';
import { prepareQuery } from '../store/prepared-query.ts';
import type { Database } from '../store/schema.ts';
import { refusalOf } from './key-refusal.ts';
import type { Plan } from './plans.ts';

/**
 * The keys of $1 (an array of key ids) that may do business, as a clause of a PostgreSQL CTE:
 * `standing(id, plan, revoked, ok)`, one row per existing key. `ok` is plans.ts's
 * `hasBusinessAccess` and not revoked; a key without a row is unknown.
 */
export const POSTGRES_STANDING_CTE = `standing as (
  select k.id, a.plan, k.revoked_at is not null as revoked, k.revoked_at is null and a.plan = 'business' as ok
  from api_keys k join accounts a on a.id = k.account_id
  where k.id = any($1::text[])
)`;

/**
 * A key's revocation and plan read in the transaction that commits what its request pays for,
 * so a key revoked (or an account moved off Business) by any process is refused from its next
 * commit on, whatever this process remembers of it.
 */
export function createKeyStandingRepository(db: Kysely<Database>) {
  const standing = prepareQuery<{ revoked_at: number | null; plan: Plan }>(db, (slot) =>
    db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.revoked_at', 'accounts.plan'])
      .where('api_keys.id', '=', slot<string>('key_id')),
  );
  return {
    /** Why `keyId` may not do business now (inside the caller's transaction when `handle` is one). */
    async refusal(keyId: string, handle: Kysely<Database> = db): Promise<AppError | undefined> {
      const row = (await standing({ key_id: keyId }, handle)).rows[0];
      return refusalOf(row && { revoked: row.revoked_at !== null, plan: row.plan });
    },
  };
}
