import { configFromEnv } from '../config.ts';
import { readLogKey } from '../log/log-key.ts';
import { createSigningKey, type SigningKey, signingKeySecret } from '../signing/certificate-crypto.ts';
import type { Command, Io } from './command.ts';
import { exportKeyFile, newKeyFile, writeKeyFile } from './key-file.ts';
import { withServices } from './store-session.ts';

function writeLogKeyFile(path: string, key: SigningKey, io: Io, when: string): number {
  const told = `Wrote the log key ${key.kid} to ${path}. ${when} with TYCHE_LOG_KEY_FILE=${path}.`;
  return writeKeyFile(path, signingKeySecret(key), io, key.kid, told);
}

export const logKeyExport: Command = {
  name: 'log-key export',
  usage: 'log-key export FILE',
  summary: `Write the transparency log's key, as the database holds it, to FILE (a new file, mode 600), and
print its kid, so it can be kept apart from the database and configured with TYCHE_LOG_KEY_FILE: the log
goes on signing with the key every verifier pinned, and a lost database no longer takes it along.`,
  async run({ positionals }, io) {
    const path = exportKeyFile(positionals, io, 'log-key export', {
      key: 'log key',
      variable: 'TYCHE_LOG_KEY_FILE',
      configured: configFromEnv(io.env).logKeyFile !== undefined,
    });
    if (typeof path === 'number') return path;
    const key = await withServices(io.env, (_services, store) => readLogKey(store.db));
    return writeLogKeyFile(path, key, io, 'Keep a copy apart from the database and restart');
  },
};

export const logKeyGenerate: Command = {
  name: 'log-key generate',
  usage: 'log-key generate FILE',
  summary: `Write a new Ed25519 transparency log key to FILE (a new file, mode 600) for TYCHE_LOG_KEY_FILE,
and print its kid. Only a new database takes it, at its first start: a log never changes its key, so a
database that has one refuses another (move that one into a file with tyche log-key export). Needs no store.`,
  async run({ positionals }, io) {
    const path = newKeyFile(positionals, io, 'log-key generate');
    if (path === undefined) return 1;
    // Validates the environment like every command, although no store is opened.
    configFromEnv({ ...io.env, TYCHE_LOG_KEY_FILE: undefined });
    return writeLogKeyFile(path, createSigningKey(), io, 'Start a new database');
  },
};
