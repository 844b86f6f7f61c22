import { configFromEnv } from '../config.ts';
import { createSigningKey, type SigningKey, signingKeySecret } from '../signing/certificate-crypto.ts';
import { ConfiguredKeyError, ROTATION_GRACE_MS } from '../signing/signer.ts';
import type { Command, Io } from './command.ts';
import { newKeyFile, writeKeyFile } from './key-file.ts';
import { listCommand } from './list-command.ts';
import { withServices } from './store-session.ts';

function writeSigningKeyFile(path: string, key: SigningKey, io: Io): number {
  const told = `Wrote the key ${key.kid} to ${path}. Start the server with TYCHE_SIGNING_KEY_FILE=${path}.`;
  return writeKeyFile(path, signingKeySecret(key), io, key.kid, told);
}

export const signingKeyRotate: Command = {
  name: 'signing-key rotate',
  usage: 'signing-key rotate [--json]',
  summary: `Replace the generated certificate signing key by a new one, announced in the transparency log
at once. Running servers sign with the new key within 30 seconds; the old key stays published and
keeps verifying every certificate it signed, and its retirement is logged ${ROTATION_GRACE_MS / 60_000} minutes later.
A key from TYCHE_SIGNING_KEY or TYCHE_SIGNING_KEY_FILE is rotated by configuring a new one instead.`,
  options: { json: { type: 'boolean' } },
  async run({ values }, io) {
    try {
      const { kid, replaced } = await withServices(io.env, ({ signer }) => signer.rotate());
      if (values.json) io.out(JSON.stringify({ kid, replaced }));
      else
        io.out(
          `Signing with ${kid} from now on; ${replaced.join(', ') || 'no key'} retires in ${ROTATION_GRACE_MS / 60_000} minutes and stays published.`,
        );
      return 0;
    } catch (error) {
      if (!(error instanceof ConfiguredKeyError)) throw error;
      io.err(`tyche signing-key rotate: ${error.message}`);
      return 2;
    }
  },
};

export const signingKeyList = listCommand({
  name: 'signing-key list',
  summary:
    'List every certificate signing key by kid, with where its secret lives, when it was first used and when it retired. Never prints a secret.',
  list: async ({ signer }) => {
    // Loading the key also retires keys whose grace period has passed.
    await signer.current();
    return signer.publicKeys();
  },
  json: ({ kid, x, created_at, retired_at }) => ({ kid, x, created_at, retired_at }),
  columns: [
    ['KID', (k) => k.kid],
    ['CREATED', (k) => k.created_at],
    ['RETIRED', (k) => k.retired_at ?? '-'],
  ],
});

export const signingKeyExport: Command = {
  name: 'signing-key export',
  usage: 'signing-key export FILE',
  summary: `Write the generated signing key in use to FILE (a new file, mode 600), so it can be kept apart
from the database and configured with TYCHE_SIGNING_KEY_FILE: the same key goes on signing, announced
in the log once, and a lost database no longer takes it along.`,
  async run({ positionals }, io) {
    const path = newKeyFile(positionals, io, 'signing-key export');
    if (path === undefined) return 1;
    if (configFromEnv(io.env).TYCHE_SIGNING_KEY) {
      io.err(
        'tyche signing-key export: the key in use already comes from TYCHE_SIGNING_KEY or TYCHE_SIGNING_KEY_FILE',
      );
      return 2;
    }
    const key = await withServices(io.env, async ({ signer }) => signer.current());
    return writeSigningKeyFile(path, key, io);
  },
};

export const signingKeyGenerate: Command = {
  name: 'signing-key generate',
  usage: 'signing-key generate FILE',
  summary: `Write a new Ed25519 signing key to FILE (a new file, mode 600) for TYCHE_SIGNING_KEY_FILE, and
print its kid. Keep a copy of FILE apart from the database: with it, a lost database does not take
the key that signed every certificate with it. Needs no store.`,
  async run({ positionals }, io) {
    const path = newKeyFile(positionals, io, 'signing-key generate');
    if (path === undefined) return 1;
    // Validates the environment like every command, although no store is opened.
    configFromEnv({ ...io.env, TYCHE_SIGNING_KEY_FILE: undefined, TYCHE_SIGNING_KEY: undefined });
    return writeSigningKeyFile(path, createSigningKey(), io);
  },
};
