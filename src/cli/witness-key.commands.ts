import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { configFromEnv } from '../config.ts';
import { cosignerVerifierKey } from '../proof/cosignature.ts';
import { systemClock } from '../shared/clock.ts';
import { ensureWitnessKey } from '../witness/witness-key.ts';
import type { Command, Io } from './command.ts';
import { exportKeyFile, newKeyFile, writeKeyFile } from './key-file.ts';
import { withServices } from './store-session.ts';

/** Prints the note verifier key, which logs configure in TYCHE_WITNESSES, as `tyche witness --print-key` does. */
function writeWitnessKeyFile(path: string, seed: Uint8Array, name: string, io: Io, when: string): number {
  const verifierKey = cosignerVerifierKey(name, ed25519.getPublicKey(seed));
  const told = `Wrote the witness key to ${path}. ${when} with WITNESS_KEY_FILE=${path}.`;
  return writeKeyFile(path, Buffer.from(seed).toString('base64url'), io, verifierKey, told);
}

export const witnessKeyExport: Command = {
  name: 'witness-key export',
  usage: 'witness-key export FILE',
  summary: `Write the key tyche witness cosigns with, as the database holds it, to FILE (a new file, mode 600),
and print its note verifier key, so it can be kept apart from the database and configured with
WITNESS_KEY_FILE: the logs that trust this witness keep trusting it after a lost database.`,
  async run({ positionals }, io) {
    const path = exportKeyFile(positionals, io, 'witness-key export', {
      key: 'witness key',
      variable: 'WITNESS_KEY_FILE',
      configured: configFromEnv(io.env).witnessKeyFile !== undefined,
    });
    if (typeof path === 'number') return path;
    const { key, name } = await withServices(io.env, async (_services, store, config) => ({
      key: await ensureWitnessKey(store.db, config.witnessName, systemClock.now().getTime()),
      name: config.witnessName,
    }));
    return writeWitnessKeyFile(
      path,
      key.seed,
      name,
      io,
      'Keep a copy apart from the database and restart tyche witness',
    );
  },
};

export const witnessKeyGenerate: Command = {
  name: 'witness-key generate',
  usage: 'witness-key generate FILE',
  summary: `Write a new Ed25519 witness key to FILE (a new file, mode 600) for WITNESS_KEY_FILE, and print the
note verifier key it gives under WITNESS_NAME. Only a new database takes it, at tyche witness's first
start: a database that has a witness key refuses another (tyche witness-key export moves that one into
a file). Needs no store.`,
  async run({ positionals }, io) {
    const path = newKeyFile(positionals, io, 'witness-key generate');
    if (path === undefined) return 1;
    // Validates the environment like every command, although no store is opened.
    const config = configFromEnv({ ...io.env, WITNESS_KEY_FILE: undefined });
    return writeWitnessKeyFile(
      path,
      randomBytes(32),
      config.witnessName,
      io,
      'Start tyche witness on a new database',
    );
  },
};
