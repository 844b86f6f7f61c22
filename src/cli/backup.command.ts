import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, configFromEnv } from '../config.ts';
import { BackupError, backupSqlite } from '../store/sqlite-backup.ts';
import { openStore } from '../store/store.ts';
import { type Command, UsageError } from './command.ts';

export const backup: Command = {
  name: 'backup',
  usage: 'backup FILE',
  summary: `Write a consistent copy of the SQLite store under DATA_DIR to FILE (a new file, mode 600),
safe while the server runs, and check the copy's integrity. To restore, stop the server and put
the copy in place of DATA_DIR/tyche.sqlite (see docs/operations.md). With DATABASE_URL, use pg_dump.
Key files (TYCHE_SIGNING_KEY_FILE, TYCHE_LOG_KEY_FILE, WITNESS_KEY_FILE) are not copied: the command
names the ones configured, to be kept apart from the database backups.`,
  async run({ positionals }, io) {
    const [file] = positionals;
    if (!file || positionals.length !== 1) throw new UsageError('give exactly one FILE to write');
    const config = configFromEnv(io.env);
    const source = join(config.DATA_DIR, 'tyche.sqlite');
    if (!config.DATABASE_URL && !existsSync(source)) {
      io.err(`tyche backup: there is no store at ${source} (DATA_DIR) to copy`);
      return 1;
    }
    const store = openStore(config);
    const unsaved = keyFiles(config);
    try {
      const report = await backupSqlite(store, file);
      io.out(
        `Backed up ${store.location} to ${report.file} (${report.bytes} bytes, schema ${report.schema ?? 'empty'})`,
      );
      if (unsaved) io.err(unsaved);
      return 0;
    } catch (error) {
      if (!(error instanceof BackupError)) throw error;
      io.err(`tyche backup: ${error.message}`);
      if (store.dialect === 'sqlite') return 1;
      // A pg_dump does not hold the key files either.
      if (unsaved) io.err(unsaved);
      return 2;
    } finally {
      await store.close();
    }
  },
};

/**
 * The key files configured, which a backup never copies: a key is safest apart from the data it
 * signs, so that a lost or stolen backup is not also the key (docs/operations.md).
 */
function keyFiles(config: Config): string | undefined {
  const files = Object.entries({
    TYCHE_SIGNING_KEY_FILE: config.TYCHE_SIGNING_KEY_FILE,
    TYCHE_LOG_KEY_FILE: config.TYCHE_LOG_KEY_FILE,
    WITNESS_KEY_FILE: config.WITNESS_KEY_FILE,
  }).flatMap(([name, path]) => (path === undefined ? [] : [`${name}=${path}`]));
  if (files.length === 0) return undefined;
  return `tyche backup: key files are not copied: keep a copy of ${files.join(', ')} apart from the database backups`;
}
