import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type SigningKey, signingKeyFromSecret } from '../signing/certificate-crypto.ts';
import type { Database } from '../store/schema.ts';

/**
 * The log key: the one key a verifier pins, which signs checkpoints and the entries that announce
 * and retire signing keys. Generated once and kept in the store, so every process on one
 * PostgreSQL signs as the same log; the row's fixed id settles processes that start together.
 */
export async function ensureLogKey(db: Kysely<Database>, now: number): Promise<SigningKey> {
  await db
    .insertInto('log_key')
    .values({ id: 1, seed: randomBytes(32).toString('base64url'), created_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return readLogKey(db);
}

export async function readLogKey(db: Kysely<Database>): Promise<SigningKey> {
  const row = await db.selectFrom('log_key').select('seed').where('id', '=', 1).executeTakeFirst();
  if (!row) throw new Error('the log key has not been created yet (run the migrations)');
  return signingKeyFromSecret(row.seed);
}

/** The raw 32-byte seed, for signed notes. */
export function seedOf(key: SigningKey): Uint8Array {
  const d = key.privateKey.export({ format: 'jwk' }).d;
  if (!d) throw new TypeError('cannot export the log key');
  return new Uint8Array(Buffer.from(d, 'base64url'));
}
