import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { createConfig } from '../../src/config.ts';
import { verifyCosignature } from '../../src/proof/cosignature.ts';
import { parseSignatureLine } from '../../src/proof/note.ts';
import { kidOf } from '../../src/signing/certificate-crypto.ts';
import { createWitnessRepository } from '../../src/witness/witness.repository.ts';
import { createWitness } from '../../src/witness/witness.service.ts';
import { buildWitnessApp } from '../../src/witness/witness-app.ts';
import { ensureWitnessKey } from '../../src/witness/witness-key.ts';
import { runTyche } from '../helpers/cli.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';
import { growingLog, post } from './witness-helpers.ts';

const NAME = 'witness.example/w';

const seedIn = (file: string) => readFileSync(file, 'utf8').trim();
const kidOfSeed = (seed: string) => kidOf(ed25519.getPublicKey(Buffer.from(seed, 'base64url')));

for (const target of await storeTargets()) {
  describe(`WITNESS_KEY_FILE on ${target.dialect}`, { skip: target.skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-witness-key-'));
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    async function fresh(): Promise<OpenedStore & { env: Record<string, string> }> {
      const opened = await target.open();
      cleanups.push(() => opened.cleanup());
      return { ...opened, env: { ...opened.env, WITNESS_NAME: NAME } };
    }

    async function generated(name: string): Promise<{ file: string; vkey: string }> {
      const file = join(dir, name);
      const res = await runTyche(['witness-key', 'generate', file], { WITNESS_NAME: NAME });
      assert.equal(res.code, 0, res.stderr);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.match(res.stdout, new RegExp(`^${NAME}\\+[0-9a-f]{8}\\+\\S+\n$`));
      assert.match(res.stderr, new RegExp(`WITNESS_KEY_FILE=${file}`));
      return { file, vkey: res.stdout.trim() };
    }

    const printKey = (env: Record<string, string>) => runTyche(['witness', '--print-key'], env);

    test('a store without a witness key takes the file key, keeps it, and cosigns with it', async () => {
      const opened = await fresh();
      const { file, vkey } = await generated('new.key');
      const env = { ...opened.env, WITNESS_KEY_FILE: file };
      for (const start of ['first start', 'restart']) {
        const res = await printKey(env);
        assert.equal(res.code, 0, res.stderr);
        assert.equal(res.stdout, `${vkey}\n`, start);
      }
      assert.equal(await createWitnessRepository(opened.store.db).keySeed(), seedIn(file));

      const clock = createFakeClock('2026-11-01T00:00:00.000Z');
      const log = growingLog(opened.store, 'log.example/log');
      await log.grow(2);
      const config = createConfig(env);
      const witness = createWitness({
        name: config.witnessName,
        key: await ensureWitnessKey(opened.store.db, NAME, clock.now().getTime(), config.witnessKeyFile),
        logs: [await log.entry()],
        repository: createWitnessRepository(opened.store.db),
        clock,
      });
      const app = await buildWitnessApp(witness);
      try {
        const res = await post(await app.listen({ host: '127.0.0.1', port: 0 }), await log.request(0, 2));
        assert.equal(res.status, 200, res.body);
        const { text } = await log.signedCheckpoint(2);
        const check = verifyCosignature(text, parseSignatureLine(res.body.trim()), vkey);
        assert.ok(check.ok, check.ok ? '' : check.problem);
      } finally {
        await app.close();
      }
    });

    test('a store with another witness key refuses to start, naming both keys', async () => {
      const opened = await fresh();
      assert.equal((await printKey(opened.env)).code, 0);
      const stored = (await createWitnessRepository(opened.store.db).keySeed())!;
      const { file } = await generated('other.key');
      const res = await printKey({ ...opened.env, WITNESS_KEY_FILE: file });
      assert.equal(res.code, 2);
      assert.equal(res.stdout, '');
      const wanted = kidOfSeed(seedIn(file));
      assert.equal(
        res.stderr,
        `tyche: WITNESS_KEY_FILE="${file}" holds the witness key ${wanted}, but the database's witness key is ${kidOfSeed(stored)} and a witness never changes its key: point WITNESS_KEY_FILE at the database's key (tyche witness-key export FILE writes it, with WITNESS_KEY_FILE unset), or use the database made with ${wanted}\n`,
      );
      assert.equal(
        await createWitnessRepository(opened.store.db).keySeed(),
        stored,
        'the store keeps its key',
      );
    });

    test('a key file that group or others can read is refused', async () => {
      const opened = await fresh();
      const { file } = await generated('open.key');
      chmodSync(file, 0o604);
      const res = await printKey({ ...opened.env, WITNESS_KEY_FILE: file });
      assert.equal(res.code, 2);
      assert.equal(
        res.stderr,
        `tyche: WITNESS_KEY_FILE="${file}" is open to group or others (mode 604): run chmod 600 "${file}"\n`,
      );
      assert.equal(await createWitnessRepository(opened.store.db).keySeed(), undefined);
    });

    test('export writes the stored key to an owner-only file, which then serves in its place', async () => {
      const opened = await fresh();
      const printed = await printKey(opened.env);
      const file = join(dir, 'exported.key');
      const res = await runTyche(['witness-key', 'export', file], opened.env);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, printed.stdout);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(seedIn(file), await createWitnessRepository(opened.store.db).keySeed());

      const env = { ...opened.env, WITNESS_KEY_FILE: file };
      assert.equal((await printKey(env)).stdout, printed.stdout);
      const again = await runTyche(['witness-key', 'export', join(dir, 'again.key')], env);
      assert.equal(again.code, 2);
      assert.equal(
        again.stderr,
        'tyche witness-key export: the witness key already comes from WITNESS_KEY_FILE\n',
      );
    });
  });
}
