import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { Kysely } from 'kysely';
import { cosignerVerifierKey } from '../proof/cosignature.ts';
import type { Database } from '../store/schema.ts';
import { createWitnessRepository } from './witness.repository.ts';

export interface WitnessKey {
  /** The 32-byte Ed25519 seed the cosignatures are made with. */
  seed: Uint8Array;
  /** The note verifier key (cosigner type 0x04) that logs configure for this witness. */
  verifierKey: string;
}

/**
 * The witness key, generated on first start and kept in the store: a witness that changed keys
 * would leave every log that trusts it unwitnessed. The row's fixed id settles processes that
 * start together on one PostgreSQL.
 */
export async function ensureWitnessKey(db: Kysely<Database>, name: string, now: number): Promise<WitnessKey> {
  const keys = createWitnessRepository(db);
  await keys.keepKeySeed(randomBytes(32).toString('base64url'), now);
  const stored = await keys.keySeed();
  if (stored === undefined) throw new Error('the witness key has not been created yet');
  const seed = new Uint8Array(Buffer.from(stored, 'base64url'));
  if (seed.length !== 32) throw new Error('the stored witness key is not a 32-byte seed');
  return { seed, verifierKey: cosignerVerifierKey(name, ed25519.getPublicKey(seed)) };
}
