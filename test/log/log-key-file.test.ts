import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import { createConfig } from '../../src/config.ts';
import { readLogKey } from '../../src/log/log-key.ts';
import { openCheckpoint } from '../../src/proof/checkpoint.ts';
import { verifierKey } from '../../src/proof/note.ts';
import { startServer } from '../../src/server.ts';
import { type SigningKey, signingKeyFromSecret } from '../../src/signing/certificate-crypto.ts';
import { openStore } from '../../src/store/store.ts';
import { runTyche } from '../helpers/cli.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { storeTargets } from '../helpers/stores.ts';

const BASE = 'https://tyche.test';
const ORIGIN = 'tyche.test/log';

const keyIn = (file: string): SigningKey => signingKeyFromSecret(readFileSync(file, 'utf8').trim());

for (const target of await storeTargets()) {
  describe(`TYCHE_LOG_KEY_FILE on ${target.dialect}`, { skip: target.skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-log-key-'));
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Where a database that does not exist yet will be: nothing migrated, no log key. */
    async function newDatabase(name: string): Promise<{ DATA_DIR: string; DATABASE_URL?: string }> {
      const DATA_DIR = join(dir, name);
      if (target.dialect === 'sqlite') return { DATA_DIR };
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      return { DATA_DIR, DATABASE_URL: database.url };
    }

    async function generated(name: string): Promise<{ file: string; key: SigningKey }> {
      const file = join(dir, name);
      const res = await runTyche(['log-key', 'generate', file], {});
      assert.equal(res.code, 0, res.stderr);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const key = keyIn(file);
      assert.equal(res.stdout, `${key.kid}\n`);
      assert.match(res.stderr, new RegExp(`TYCHE_LOG_KEY_FILE=${file}`));
      return { file, key };
    }

    /** `tyche serve`'s start, on a free port; the checkpoint it serves, opened with `key`. */
    async function served(env: Record<string, string | undefined>, key: SigningKey) {
      const server = await startServer(
        createConfig({ ...env, PORT: '0', PUBLIC_BASE_URL: BASE, TYCHE_SOURCES: 'system' }),
        pino({ level: 'silent' }),
      );
      try {
        const note = await (await fetch(`${server.url}/log/checkpoint`)).text();
        const opened = openCheckpoint(note, verifierKey(ORIGIN, key.publicKeyRaw));
        const published = await (await fetch(`${server.url}/.well-known/tyche-keys.json`)).json();
        return { opened, published: published.log };
      } finally {
        await server.stop();
      }
    }

    test('a new database takes the file key; checkpoints verify under it; a restart keeps it', async () => {
      const { file, key } = await generated('new.key');
      const env = { ...(await newDatabase('new')), TYCHE_LOG_KEY_FILE: file };
      // A signing key's announcement: an entry signed by the log key, made by migration and CLI.
      const listed = await runTyche(['signing-key', 'list', '--json'], env);
      assert.equal(listed.code, 0, listed.stderr);

      for (const start of ['first start', 'restart']) {
        const { opened, published } = await served(env, key);
        assert.ok(opened.ok, `${start}: ${opened.ok ? '' : opened.problem}`);
        assert.equal(opened.checkpoint.size, 1, start);
        assert.equal(published.kid, key.kid, start);
        assert.equal(published.key, verifierKey(ORIGIN, key.publicKeyRaw), start);
      }
      const store = openStore(env);
      try {
        assert.equal((await readLogKey(store.db)).kid, key.kid, 'recorded in the database as before');
      } finally {
        await store.close();
      }

      const again = await runTyche(['log-key', 'export', join(dir, 'again.key')], env);
      assert.equal(again.code, 2);
      assert.equal(again.stderr, 'tyche log-key export: the log key already comes from TYCHE_LOG_KEY_FILE\n');
    });

    test('a database with another log key refuses to start, naming both keys', async () => {
      const opened = await target.open();
      cleanups.push(() => opened.cleanup());
      const stored = await readLogKey(opened.store.db);
      const { file, key } = await generated('other.key');
      const res = await runTyche(['serve'], {
        ...opened.env,
        TYCHE_LOG_KEY_FILE: file,
        PORT: '0',
        TYCHE_SOURCES: 'system',
        LOG_LEVEL: 'silent',
      });
      assert.equal(res.code, 2);
      assert.equal(res.stdout, '');
      assert.equal(
        res.stderr,
        `tyche: TYCHE_LOG_KEY_FILE="${file}" holds the log key ${key.kid}, but the database's log key is ${stored.kid} and a log never changes its key: point TYCHE_LOG_KEY_FILE at the database's key (tyche log-key export FILE writes it, with TYCHE_LOG_KEY_FILE unset), or use the database made with ${key.kid}\n`,
      );
      assert.equal((await readLogKey(opened.store.db)).kid, stored.kid, 'the database keeps its key');
    });

    test('a key file that group or others can read is refused', async () => {
      const { file } = await generated('open.key');
      chmodSync(file, 0o640);
      const res = await runTyche(['serve'], { ...(await newDatabase('open')), TYCHE_LOG_KEY_FILE: file });
      assert.equal(res.code, 2);
      assert.equal(
        res.stderr,
        `tyche: TYCHE_LOG_KEY_FILE="${file}" is open to group or others (mode 640): run chmod 600 "${file}"\n`,
      );
    });

    test('export writes the database key to an owner-only file, which then signs in its place', async () => {
      const opened = await target.open();
      cleanups.push(() => opened.cleanup());
      const stored = await readLogKey(opened.store.db);
      const file = join(dir, `exported-${target.dialect}.key`);
      const res = await runTyche(['log-key', 'export', file], opened.env);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `${stored.kid}\n`);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(keyIn(file).kid, stored.kid);

      const exists = await runTyche(['log-key', 'export', file], opened.env);
      assert.equal(exists.code, 1);
      assert.match(exists.stderr, /exists already: give a new file name/);

      const { opened: checkpoint, published } = await served(
        { ...opened.env, TYCHE_LOG_KEY_FILE: file },
        stored,
      );
      assert.ok(checkpoint.ok, checkpoint.ok ? '' : checkpoint.problem);
      assert.equal(published.kid, stored.kid);
    });
  });
}
