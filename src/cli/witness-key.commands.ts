import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { cosignerVerifierKey } from '../proof/cosignature.ts';
import { systemClock } from '../shared/clock.ts';
import { ensureWitnessKey } from '../witness/witness-key.ts';
import { keyFileCommands } from './key-file.ts';

const witnessKey = keyFileCommands<{ seed: Uint8Array; name: string }>({
  group: 'witness-key',
  summaries: {
    export: `Write the key tyche witness cosigns with, as the database holds it, to FILE (a new file, mode 600),
and print its note verifier key, so it can be kept apart from the database and configured with
WITNESS_KEY_FILE: the logs that trust this witness keep trusting it after a lost database.`,
    generate: `Write a new Ed25519 witness key to FILE (a new file, mode 600) for WITNESS_KEY_FILE, and print the
note verifier key it gives under WITNESS_NAME. Only a new database takes it, at tyche witness's first
start: a database that has a witness key refuses another (tyche witness-key export moves that one into
a file). Needs no store.`,
  },
  fileVariable: 'WITNESS_KEY_FILE',
  variables: ['WITNESS_KEY_FILE'],
  key: 'witness key',
  configured: (config) => config.witnessKeyFile !== undefined,
  stored: async (_services, store, config) => {
    const key = await ensureWitnessKey(store.db, config.witnessName, systemClock.now().getTime());
    return { seed: key.seed, name: config.witnessName };
  },
  fresh: (config) => ({ seed: randomBytes(32), name: config.witnessName }),
  // Prints the note verifier key, which logs configure in TYCHE_WITNESSES, as `tyche witness --print-key` does.
  written: ({ seed, name }) => ({
    secret: Buffer.from(seed).toString('base64url'),
    id: cosignerVerifierKey(name, ed25519.getPublicKey(seed)),
    what: 'witness key',
  }),
  next: {
    export: 'Keep a copy apart from the database and restart tyche witness',
    generate: 'Start tyche witness on a new database',
  },
});

export const witnessKeyExport = witnessKey.export;
export const witnessKeyGenerate = witnessKey.generate;
