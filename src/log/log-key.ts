import type { Kysely } from 'kysely';
import { type SigningKey, signingKeyFromSecret } from '../signing/certificate-crypto.ts';
import type { Database } from '../store/schema.ts';
import { createLogRepository } from './log.repository.ts';

/** The log key kept in a file (TYCHE_LOG_KEY_FILE): its base64url seed, and where it came from. */
export interface ConfiguredLogKey {
  seed: string;
  /** `TYCHE_LOG_KEY_FILE="path"`, for the message that refuses another key. */
  source: string;
}

export class LogKeyMismatchError extends Error {
  override name = 'LogKeyMismatchError';
}

/**
 * The log key: the one key a verifier pins, which signs checkpoints and the entries that announce
 * and retire signing keys. Made once, by migration 008 (from the file when one is configured),
 * and kept in the store, so every process on one PostgreSQL signs as the same log. A configured
 * key that is not the stored one is refused rather than taken: a log never changes its key.
 */
export async function readLogKey(db: Kysely<Database>, configured?: ConfiguredLogKey): Promise<SigningKey> {
  const seed = await createLogRepository(db).keySeed();
  if (seed === undefined) throw new Error('the log key has not been created yet (run the migrations)');
  const stored = signingKeyFromSecret(seed);
  if (configured) {
    const wanted = signingKeyFromSecret(configured.seed);
    if (wanted.kid !== stored.kid) {
      throw new LogKeyMismatchError(
        `${configured.source} holds the log key ${wanted.kid}, but the database's log key is ${stored.kid} and a log never changes its key: point TYCHE_LOG_KEY_FILE at the database's key (tyche log-key export FILE writes it, with TYCHE_LOG_KEY_FILE unset), or use the database made with ${wanted.kid}`,
      );
    }
  }
  return stored;
}

/** The raw 32-byte seed, for signed notes. */
export function seedOf(key: SigningKey): Uint8Array {
  const d = key.privateKey.export({ format: 'jwk' }).d;
  if (!d) throw new TypeError('cannot export the log key');
  return new Uint8Array(Buffer.from(d, 'base64url'));
}
