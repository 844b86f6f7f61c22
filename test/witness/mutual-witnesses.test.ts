import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { createLogService } from '../../src/log/log.service.ts';
import { openCheckpoint } from '../../src/proof/checkpoint.ts';
import { cosignerVerifierKey, verifyCosignatures } from '../../src/proof/cosignature.ts';
import type { Seal } from '../../src/proof/v2-types.ts';
import { addParticipants, draw, people } from '../giveaways/giveaway-helpers.ts';
import { createVerifiable, startVerifiableApp, type VerifiableApp } from '../giveaways/verifiable-helpers.ts';
import { bearer } from '../helpers/app.ts';
import { runTyche } from '../helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';

const [sqlite] = await storeTargets();
const SITES = ['a.example', 'b.example'];

/**
 * Two deployments, each a log and a real `tyche witness` process, witnessing each other over
 * HTTP: each log's seals come out witnessed by the other deployment before their round, while a
 * third witness that is down holds nothing up.
 */
describe('two deployments witness each other', () => {
  const witnesses: ServerProcess[] = [];
  const witnessStores: OpenedStore[] = [];
  const logs: VerifiableApp[] = [];
  const witnessKeys: string[] = [];

  before(async () => {
    // The log keys exist once the logs' stores are migrated; the witness keys once printed.
    const logStores = [await sqlite.open(), await sqlite.open()];
    const logKeys = await Promise.all(
      logStores.map(
        async (o, i) =>
          (await createLogService({ db: o.store.db, origin: `${SITES[i]}/log` }).publicKey()).key,
      ),
    );
    for (const [i, site] of SITES.entries()) {
      const opened = await sqlite.open();
      witnessStores.push(opened);
      const env = { ...opened.env, WITNESS_NAME: `${site}/witness` };
      const printed = await runTyche(['witness', '--print-key'], env);
      assert.equal(printed.code, 0, printed.stderr);
      witnessKeys.push(printed.stdout.trim());
      const other = 1 - i;
      witnesses.push(
        await startServerProcess(
          { ...env, TYCHE_WITNESS_LOGS: `${SITES[other]}/log ${logKeys[other]}` },
          { command: 'witness' },
        ),
      );
    }
    const deadKey = cosignerVerifierKey(
      'dead.example/witness',
      ed25519.getPublicKey(ed25519.utils.randomSecretKey()),
    );
    const dead = `http://127.0.0.1:9 ${deadKey}`;
    for (const [i, site] of SITES.entries()) {
      const other = 1 - i;
      const asked = `${witnesses[other].url} ${witnessKeys[other]}`;
      logs.push(
        await startVerifiableApp({
          opened: logStores[i],
          config: {
            PUBLIC_BASE_URL: `https://${site}`,
            TYCHE_WITNESSES: i === 0 ? `${asked},${dead}` : asked,
          },
        }),
      );
    }
  });
  after(async () => {
    await Promise.all(witnesses.map((w) => w.stop()));
    for (const l of logs) await l.close();
    for (const s of witnessStores) await s.cleanup();
  });

  test('each seal is witnessed by the other deployment before its round', async () => {
    for (const [i, t] of logs.entries()) {
      const key = await t.key();
      const id = await createVerifiable(t, key, { winners_count: 1 });
      await addParticipants(t, key, id, people(5, 100 * (i + 1)));
      const s: Seal = (await draw(t, key, id)).json().seal;
      await t.runner.runDue();
      t.reachRound(s.beacon.round);
      await t.runner.runDue();
      const done = (await t.app.inject({ url: `/api/v1/giveaways/${id}`, headers: bearer(key) })).json();
      assert.equal(done.status, 'completed');
      const cert = (await t.app.inject({ url: `/verify/${done.certificate_id}.json` })).json();
      assert.ok(cert.seal_witness, `${SITES[i]}: the seal is witnessed`);
      const logKey = (await t.services.transparency.publicKey()).key;
      const opened = openCheckpoint(cert.seal_witness.checkpoint, logKey);
      assert.ok(opened.ok, opened.ok ? '' : opened.problem);
      const { cosigners } = verifyCosignatures(opened.note, witnessKeys);
      assert.deepEqual(
        cosigners.map((c) => c.name),
        [`${SITES[1 - i]}/witness`],
        'cosigned by the other deployment only',
      );
      assert.ok(cosigners[0].timestamp * 1000 < Date.parse(s.beacon.round_at));

      // The verifier counts only the witnesses it was told to trust.
      const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const chainFile = join(mkdtempSync(join(tmpdir(), 'tyche-chain-')), 'chain.json');
      writeFileSync(chainFile, JSON.stringify(t.drand.info));
      const args = ['verify', `${url}/verify/${done.certificate_id}`, '--drand-chain', chainFile];
      const trusted = await runTyche([...args, '--witness', witnessKeys[1 - i]], {});
      assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
      assert.match(trusted.stdout, /^✓ Seal witnesses: seal witnessed before the round by 1 witness$/m);
      const untrusted = await runTyche([...args, '--witness', witnessKeys[i]], {});
      assert.match(untrusted.stdout, /^! Seal time: warning: seal time attested by the operator only$/m);
    }
  });
});
