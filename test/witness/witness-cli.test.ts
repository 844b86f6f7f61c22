import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { submitToWitness } from '../../src/log/witness-client.ts';
import { COSIGNATURE_ED25519, verifyCosignature } from '../../src/proof/cosignature.ts';
import { bytesEqual } from '../../src/proof/hex.ts';
import { parseVerifierKey } from '../../src/proof/note.ts';
import { runTyche } from '../helpers/cli.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';
import { type GrowingLog, growingLog } from './witness-helpers.ts';

const ORIGIN = 'cli.example/log';
const [sqlite] = await storeTargets();

describe('tyche witness', () => {
  let logSide: OpenedStore;
  let witnessSide: OpenedStore;
  let log: GrowingLog;

  before(async () => {
    logSide = await sqlite.open();
    witnessSide = await sqlite.open();
    log = growingLog(logSide.store, ORIGIN);
    await log.grow(3);
  });
  after(async () => {
    await logSide.cleanup();
    await witnessSide.cleanup();
  });

  test('--print-key prints one cosigner key, named after PUBLIC_BASE_URL unless WITNESS_NAME says', async () => {
    const env = { ...witnessSide.env, PUBLIC_BASE_URL: 'https://w.example/tyche/' };
    const first = await runTyche(['witness', '--print-key'], env);
    assert.equal(first.code, 0, first.stderr);
    const key = parseVerifierKey(first.stdout.trim());
    assert.deepEqual([key.name, key.type], ['w.example/tyche/witness', COSIGNATURE_ED25519]);
    assert.equal(first.stdout, `${first.stdout.trim()}\n`, 'the key and nothing else');

    const again = await runTyche(['witness', '--print-key'], env);
    assert.equal(again.stdout, first.stdout, 'generated once, then kept');
    const named = await runTyche(['witness', '--print-key'], { ...env, WITNESS_NAME: 'other.example/w' });
    const renamed = parseVerifierKey(named.stdout.trim());
    assert.equal(renamed.name, 'other.example/w');
    assert.ok(bytesEqual(renamed.publicKey, key.publicKey), 'the same key under another name');
  });

  test('a real process cosigns add-checkpoint, and keeps what it cosigned across a restart', async () => {
    const env = {
      ...witnessSide.env,
      WITNESS_NAME: 'cli.example/witness',
      TYCHE_WITNESS_LOGS: `${ORIGIN} ${(await log.entry()).vkey}`,
    };
    const printed = (await runTyche(['witness', '--print-key'], env)).stdout.trim();
    const witnessKey = parseVerifierKey(printed);
    const ask = async (url: string, oldSize: number, size: number) =>
      submitToWitness({
        url,
        witnessKey,
        oldSize,
        proof: await log.log.consistencyProof(oldSize, size),
        note: (await log.signedCheckpoint(size)).note,
        timeoutMs: 10_000,
      });

    let server = await startServerProcess(env, { command: 'witness' });
    try {
      const started = server.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'tyche witness is serving');
      assert.equal(started?.key, printed, 'the start-up line names its key');
      assert.deepEqual(started?.logs, [ORIGIN]);
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);

      const before = Math.floor(Date.now() / 1000);
      const answer = await ask(server.url, 0, 2);
      assert.equal(answer.status, 'cosigned', JSON.stringify(answer));
      if (answer.status !== 'cosigned') return;
      const check = verifyCosignature((await log.signedCheckpoint(2)).text, answer.signatures[0], printed);
      assert.ok(check.ok && check.timestamp >= before && check.timestamp <= Math.floor(Date.now() / 1000));
      assert.equal(await server.stop(), 0, 'stops cleanly on SIGTERM');

      server = await startServerProcess(env, { command: 'witness' });
      assert.deepEqual(await ask(server.url, 0, 3), { status: 'conflict', size: 2 });
      assert.equal((await ask(server.url, 2, 3)).status, 'cosigned');
    } finally {
      await server.stop();
    }
  });
});
