import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configFromEnv } from '../config.ts';
import { BackupError, backupSqlite } from '../store/sqlite-backup.ts';
import { openStore } from '../store/store.ts';
import { type Command, UsageError } from './command.ts';

export const backup: Command = {
  name: 'backup',
  usage: 'backup FILE',
  summary: `Write a consistent copy of the SQLite store under DATA_DIR to FILE (a new file, mode 600),
safe while the server runs, and check the copy's integrity. To restore, stop the server and put
the copy in place of DATA_DIR/tyche.sqlite (see docs/operations.md). With DATABASE_URL, use pg_dump.`,
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
    try {
      const report = await backupSqlite(store, file);
      io.out(
        `Backed up ${store.location} to ${report.file} (${report.bytes} bytes, schema ${report.schema ?? 'empty'})`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof BackupError)) throw error;
      io.err(`tyche backup: ${error.message}`);
      return store.dialect === 'sqlite' ? 1 : 2;
    } finally {
      await store.close();
    }
  },
};
