import { readLogKey } from '../log/log-key.ts';
import { createSigningKey, type SigningKey, signingKeySecret } from '../signing/certificate-crypto.ts';
import { keyFileCommands } from './key-file.ts';

const logKey = keyFileCommands<SigningKey>({
  group: 'log-key',
  summaries: {
    export: `Write the transparency log's key, as the database holds it, to FILE (a new file, mode 600), and
print its kid, so it can be kept apart from the database and configured with TYCHE_LOG_KEY_FILE: the log
goes on signing with the key every verifier pinned, and a lost database no longer takes it along.`,
    generate: `Write a new Ed25519 transparency log key to FILE (a new file, mode 600) for TYCHE_LOG_KEY_FILE,
and print its kid. Only a new database takes it, at its first start: a log never changes its key, so a
database that has one refuses another (move that one into a file with tyche log-key export). Needs no store.`,
  },
  fileVariable: 'TYCHE_LOG_KEY_FILE',
  variables: ['TYCHE_LOG_KEY_FILE'],
  key: 'log key',
  configured: (config) => config.logKeyFile !== undefined,
  stored: (_services, store) => readLogKey(store.db),
  fresh: () => createSigningKey(),
  written: (key) => ({ secret: signingKeySecret(key), id: key.kid, what: `log key ${key.kid}` }),
  next: { export: 'Keep a copy apart from the database and restart', generate: 'Start a new database' },
});

export const logKeyExport = logKey.export;
export const logKeyGenerate = logKey.generate;
