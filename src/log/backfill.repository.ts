import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { KeyRecord } from './key-entries.ts';

/** A seal or certificate as it was signed, with when it was made. */
export interface SignedRow {
  id: string;
  body: string;
  createdAt: number;
}

/** What was signed before the log existed: read once, by the backfill of migration 008. */
export function createBackfillRepository(trx: Kysely<Database>) {
  return {
    async signingKeys(): Promise<KeyRecord[]> {
      const rows = await trx
        .selectFrom('signing_keys')
        .select(['kid', 'x', 'created_at', 'retired_at'])
        .execute();
      return rows.map((row) => ({
        kid: row.kid,
        x: row.x,
        created_at: Number(row.created_at),
        retired_at: row.retired_at === null ? null : Number(row.retired_at),
      }));
    },

    async seals(): Promise<SignedRow[]> {
      const rows = await trx.selectFrom('seals').select(['seal_id', 'body', 'created_at']).execute();
      return rows.map((r) => ({ id: r.seal_id, body: r.body, createdAt: Number(r.created_at) }));
    },

    async certificates(): Promise<SignedRow[]> {
      const rows = await trx.selectFrom('certificates').select(['id', 'body', 'created_at']).execute();
      return rows.map((r) => ({ id: r.id, body: r.body, createdAt: Number(r.created_at) }));
    },
  };
}
