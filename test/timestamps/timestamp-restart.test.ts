import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { checkTimestampToken } from '../../src/proof/timestamp/token-check.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { runTyche } from '../helpers/cli.ts';
import { type FakeTsa, startFakeTsa, writeTsaTrust } from '../helpers/fake-tsa.ts';
import { type FakeDrand, startFakeDrand } from '../helpers/fake-upstreams.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

// Real processes cannot share a fake clock: the chain has a one-second period, and the round is
// committed 30 rounds ahead, so the durable job (first run 5 s after the seal) has time to work.
for (const target of await storeTargets()) {
  describe(`timestamps across a SIGKILL (${target.dialect})`, { skip: target.skip }, () => {
    let drand: FakeDrand;
    let tsas: FakeTsa[];
    let env: Record<string, string>;
    let dir: string;
    let cleanup: (() => Promise<void>) | undefined;
    const running: ServerProcess[] = [];

    before(async () => {
      drand = await startFakeDrand({ clock: systemClock, period: 1 });
      tsas = [await startFakeTsa({ clock: systemClock }), await startFakeTsa({ clock: systemClock })];
      dir = mkdtempSync(join(tmpdir(), 'tyche-tsa-kill-'));
      const opened = await target.open();
      await opened.store.close();
      cleanup = opened.cleanup;
      env = {
        ...opened.env,
        DRAND_URL: drand.url,
        DRAND_CHAIN: JSON.stringify(drand.info),
        TYCHE_SEAL_DELAY_ROUNDS: '30',
        TYCHE_DRAW_WAIT_MS: '0',
        TYCHE_SOURCES: 'system',
        PUBLIC_BASE_URL: 'https://tyche.example',
        TYCHE_TSA_URLS: tsas.map((t) => t.url).join(','),
        TYCHE_TSA_TRUST: writeTsaTrust(join(dir, 'roots.pem'), tsas),
      };
    });
    after(async () => {
      await Promise.all(running.map((s) => s.stop('SIGKILL')));
      await cleanup?.().catch(() => {});
      await drand.close();
      for (const tsa of tsas) await tsa.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a process killed while asking the TSAs: the restarted one keeps the promise, once per TSA', async () => {
      const server = await startServerProcess(env);
      running.push(server);
      const created = await runTyche(['keys', 'create', '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      const key = JSON.parse(created.stdout).key as string;
      const g = await api(server.url, key, 'POST', '/api/v1/giveaways', {
        title: 'Killed',
        winners_count: 1,
      });
      const id = g.body.public_id as string;
      await api(server.url, key, 'POST', `/api/v1/giveaways/${id}/participants`, {
        participants: Array.from({ length: 5 }, (_, i) => ({ telegram_id: 700 + i })),
      });

      for (const tsa of tsas) await tsa.setMode('hang');
      const asked = tsas.map((tsa) => tsa.requests);
      const answer = api(server.url, key, 'POST', `/api/v1/giveaways/${id}/seal`).catch(() => undefined);
      // Both requests are out, so the seal has committed; the process dies before any token comes back.
      await Promise.all(tsas.map((tsa, i) => tsa.whenRequests(asked[i] + 1)));
      assert.equal(await server.stop('SIGKILL'), null);
      assert.equal(await answer, undefined, 'the caller never got an answer');
      for (const tsa of tsas) await tsa.setMode('good');

      const again = await startServerProcess(env);
      running.push(again);
      let view = (await api(again.url, key, 'GET', `/g/${id}.json`)).body;
      assert.equal(view.status, 'sealed', 'the seal committed before the TSAs were asked');
      const deadline = Date.now() + 30_000;
      while (view.seal_timestamps.length < tsas.length && Date.now() < deadline) {
        await delay(250);
        view = (await api(again.url, key, 'GET', `/g/${id}.json`)).body;
      }
      assert.deepEqual(
        view.seal_timestamps.map((s: { tsa: string }) => s.tsa).sort(),
        tsas.map((tsa) => tsa.url).sort(),
        'one token per TSA, none lost and none doubled',
      );
      for (const stamp of view.seal_timestamps) {
        const check = await checkTimestampToken(stamp.token, {
          hash: view.seal.hash,
          anchors: tsas.map((tsa) => tsa.rootPem),
          notAfter: view.seal.beacon.round_at,
        });
        assert.equal(check.ok, true, check.reason ?? '');
      }
    });
  });
}
