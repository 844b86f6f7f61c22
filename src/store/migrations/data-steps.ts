import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * Work a frozen migration needs from live code above store/, which it must not import. The
 * composition root hands it to `Store.migrate`, and the migration runs it at its own point, in
 * its own transaction, exactly as if it were part of it: an old database upgrades as it always
 * did. Injected rather than run later at start, because it must happen once, under the
 * migrations' lock, before anything new is appended beside it.
 */
export interface DataSteps {
  /** 008: puts every signing key, seal and certificate made before the log existed into it, in order. */
  backfillLog(trx: Kysely<Database>): Promise<unknown>;
  /**
   * 008: the log key's base64url seed when it is kept in a file (TYCHE_LOG_KEY_FILE), so a new
   * database starts with that key instead of a random one. A database past 008 keeps its key.
   */
  logKeySeed?: string | undefined;
}
