import type { Kysely } from 'kysely';
import { keyEntryBody, leafDataOf } from '../proof/log-entry.ts';
import { isoTime } from '../shared/clock.ts';
import { type SigningKey, sealCertificate } from '../signing/certificate-crypto.ts';
import { StaleKeyError } from '../signing/signer.ts';
import { isRetiredKey } from '../signing/signing-key.repository.ts';
import type { Database } from '../store/schema.ts';
import type { Appended, TransparencyLog } from './transparency-log.ts';

/** What the log needs of a signing key row to announce or retire it. */
export interface KeyRecord {
  kid: string;
  /** base64url of the 32-byte public key (the JWK `x`). */
  x: string;
  created_at: number;
  retired_at: number | null;
}

/**
 * Appends the `tyche-key` entry that announces `key` (or, with `retired`, retires it), signed by
 * the log key, inside the caller's transaction — the one that stores or retires the key, so a
 * key exists exactly when its announcement does and signs nothing before it.
 */
export function appendKeyEntry(
  log: TransparencyLog,
  trx: Kysely<Database>,
  logKey: SigningKey,
  key: KeyRecord,
  retired = false,
): Promise<Appended> {
  if (retired && key.retired_at === null) throw new TypeError(`key ${key.kid} is not retired`);
  const body = keyEntryBody({
    kid: key.kid,
    publicKey: new Uint8Array(Buffer.from(key.x, 'base64url')),
    createdAt: isoTime(key.created_at),
    retiredAt: retired && key.retired_at !== null ? isoTime(key.retired_at) : undefined,
  });
  const signed = sealCertificate(body, logKey);
  return log.append(trx, {
    kind: 'key',
    id: key.kid,
    leafData: leafDataOf(signed),
    createdAt: retired && key.retired_at !== null ? key.retired_at : key.created_at,
  });
}

/**
 * Refuses to log an object signed by a key the log has retired, which every verifier would
 * reject (CONTRACT §8). Run in the append's transaction after the head is taken: a key's
 * retirement is logged in the transaction that retires it, so either it is already committed and
 * seen here, or its entry comes after this one. Only a process that held a key past its lease
 * can get here with a retired one; its transaction rolls back.
 */
export async function checkSignedByLiveKey(trx: Kysely<Database>, signed: object): Promise<void> {
  const signature = (signed as { signature?: { kid?: unknown } }).signature;
  if (typeof signature?.kid !== 'string') return;
  if (await isRetiredKey(trx, signature.kid)) {
    throw new StaleKeyError(`signing key ${signature.kid} is retired in the log: nothing it signs is logged`);
  }
}
