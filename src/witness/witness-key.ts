import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { Kysely } from 'kysely';
import { cosignerVerifierKey } from '../proof/cosignature.ts';
import { kidOf } from '../signing/certificate-crypto.ts';
import type { Database } from '../store/schema.ts';
import { createWitnessRepository } from './witness.repository.ts';

export interface WitnessKey {
  /** The 32-byte Ed25519 seed the cosignatures are made with. */
  seed: Uint8Array;
  /** The note verifier key (cosigner type 0x04) that logs configure for this witness. */
  verifierKey: string;
}

/** The witness key kept in a file (WITNESS_KEY_FILE): its base64url seed, and where it came from. */
export interface ConfiguredWitnessKey {
  seed: string;
  /** `WITNESS_KEY_FILE="path"`, for the message that refuses another key. */
  source: string;
}

export class WitnessKeyMismatchError extends Error {
  override name = 'WitnessKeyMismatchError';
}

const seedBytes = (seed: string) => new Uint8Array(Buffer.from(seed, 'base64url'));
const kidOfSeed = (seed: Uint8Array) => kidOf(ed25519.getPublicKey(seed));

/**
 * The witness key, generated on first start (or taken from WITNESS_KEY_FILE) and kept in the
 * store: a witness that changed keys would leave every log that trusts it unwitnessed, so a
 * configured key that is not the stored one is refused. The row's fixed id settles processes
 * that start together on one PostgreSQL.
 */
export async function ensureWitnessKey(
  db: Kysely<Database>,
  name: string,
  now: number,
  configured?: ConfiguredWitnessKey,
): Promise<WitnessKey> {
  const keys = createWitnessRepository(db);
  await keys.keepKeySeed(configured?.seed ?? randomBytes(32).toString('base64url'), now);
  const stored = await keys.keySeed();
  if (stored === undefined) throw new Error('the witness key has not been created yet');
  const seed = seedBytes(stored);
  if (seed.length !== 32) throw new Error('the stored witness key is not a 32-byte seed');
  if (configured) {
    const wanted = kidOfSeed(seedBytes(configured.seed));
    const held = kidOfSeed(seed);
    if (wanted !== held) {
      throw new WitnessKeyMismatchError(
        `${configured.source} holds the witness key ${wanted}, but the database's witness key is ${held} and a witness never changes its key: point WITNESS_KEY_FILE at the database's key (tyche witness-key export FILE writes it, with WITNESS_KEY_FILE unset), or use the database made with ${wanted}`,
      );
    }
  }
  return { seed, verifierKey: cosignerVerifierKey(name, ed25519.getPublicKey(seed)) };
}
