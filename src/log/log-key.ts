import type { Kysely } from 'kysely';
import { type SigningKey, signingKeyFromSecret } from '../signing/certificate-crypto.ts';
import type { Database } from '../store/schema.ts';
import { createLogRepository } from './log.repository.ts';

/**
 * The log key: the one key a verifier pins, which signs checkpoints and the entries that announce
 * and retire signing keys. Made once, by migration 008, and kept in the store, so every process
 * on one PostgreSQL signs as the same log.
 */
export async function readLogKey(db: Kysely<Database>): Promise<SigningKey> {
  const seed = await createLogRepository(db).keySeed();
  if (seed === undefined) throw new Error('the log key has not been created yet (run the migrations)');
  return signingKeyFromSecret(seed);
}

/** The raw 32-byte seed, for signed notes. */
export function seedOf(key: SigningKey): Uint8Array {
  const d = key.privateKey.export({ format: 'jwk' }).d;
  if (!d) throw new TypeError('cannot export the log key');
  return new Uint8Array(Buffer.from(d, 'base64url'));
}
