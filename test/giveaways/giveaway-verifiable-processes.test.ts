import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock } from '../../src/shared/clock.ts';
import { runTyche } from '../helpers/cli.ts';
import { type FakeDrand, startFakeDrand } from '../helpers/fake-upstreams.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

// Real processes cannot share a fake clock, so these run on a fake chain with a one-second period
// and a two-round delay: a committed round is out a few seconds after the seal.
async function chainEnv(drand: FakeDrand) {
  return {
    DRAND_URL: drand.url,
    DRAND_CHAIN: JSON.stringify(drand.info),
    TYCHE_SEAL_DELAY_ROUNDS: '2',
    TYCHE_SOURCES: 'system',
    PUBLIC_BASE_URL: 'https://tyche.example',
  };
}

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** Polls the giveaway until it is completed, for at most `ms` of real time. */
async function completed(url: string, key: string, publicId: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const g = await api(url, key, 'GET', `/giveaways/${publicId}`);
    if (g.body.status === 'completed' || Date.now() > deadline) return g.body;
    await delay(250);
  }
}

const targets = await storeTargets();

for (const target of targets) {
  describe(`verifiable draws across real processes (${target.dialect})`, { skip: target.skip }, () => {
    let drand: FakeDrand;
    let env: Record<string, string>;
    let cleanup: (() => Promise<void>) | undefined;
    const running: ServerProcess[] = [];

    before(async () => {
      drand = await startFakeDrand({ clock: systemClock, period: 1 });
      const opened = await target.open();
      await opened.store.close();
      cleanup = opened.cleanup;
      env = { ...opened.env, ...(await chainEnv(drand)) } as Record<string, string>;
    });
    after(async () => {
      await Promise.all(running.map((s) => s.stop('SIGKILL')));
      await cleanup?.().catch(() => {});
      await drand.close();
    });

    const newKey = async () => {
      const created = await runTyche(['keys', 'create', '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      return JSON.parse(created.stdout).key as string;
    };

    test('a sealed giveaway survives a SIGKILL and is drawn by the restarted process', async () => {
      const server = await startServerProcess({ ...env, TYCHE_DRAW_WAIT_MS: '0' });
      running.push(server);
      const key = await newKey();
      const g = await api(server.url, key, 'POST', '/giveaways', { title: 'Restart', winners_count: 2 });
      await api(server.url, key, 'POST', `/giveaways/${g.body.public_id}/participants`, {
        participants: Array.from({ length: 25 }, (_, i) => ({ telegram_id: 100 + i })),
      });
      const sealed = await api(server.url, key, 'POST', `/giveaways/${g.body.public_id}/seal`);
      assert.equal(sealed.status, 200);
      assert.equal(await server.stop('SIGKILL'), null);
      // The round comes and goes while no process runs.
      while (Date.now() < Date.parse(sealed.body.seal.beacon.round_at) + 1000) await delay(200);
      const again = await startServerProcess({ ...env, TYCHE_DRAW_WAIT_MS: '0' });
      running.push(again);
      const done = await completed(again.url, key, g.body.public_id, 15_000);
      assert.equal(done.status, 'completed', 'drawn by itself after the restart');
      assert.equal(done.winners.length, 2);
    });

    test('draw calls on several processes make one draw, which every caller receives', async () => {
      const servers =
        target.dialect === 'postgres'
          ? await Promise.all([
              startServerProcess({ ...env, TYCHE_DRAW_WAIT_MS: '20000' }),
              startServerProcess({ ...env, TYCHE_DRAW_WAIT_MS: '20000' }),
            ])
          : [await startServerProcess({ ...env, TYCHE_DRAW_WAIT_MS: '20000' })];
      running.push(...servers);
      const key = await newKey();
      const url = servers[0].url;
      const g = await api(url, key, 'POST', '/giveaways', { title: 'Many callers', winners_count: 3 });
      await api(url, key, 'POST', `/giveaways/${g.body.public_id}/participants`, {
        participants: Array.from({ length: 60 }, (_, i) => ({ telegram_id: 9000 + i })),
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api(servers[i % servers.length].url, key, 'POST', `/giveaways/${g.body.public_id}/draw`),
        ),
      );
      const ids = new Set(results.map((r) => r.body.certificate_id));
      for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(ids.size, 1, 'one certificate');
      const done = await api(url, key, 'GET', `/giveaways/${g.body.public_id}`);
      assert.equal(done.body.certificate_id, [...ids][0]);
      assert.equal(new Set(results.map((r) => r.body.log_index)).size, 1, 'one certificate entry');

      // Every process appended to one log: no gap, and this draw's seal and certificate once each.
      const checkpoint = await (await fetch(`${url}/log/checkpoint`)).text();
      const size = Number(checkpoint.split('\n')[1]);
      const { entries } = await (await fetch(`${url}/log/entries?start=0&end=${size}`)).json();
      assert.deepEqual(
        entries.map((e: { index: number }) => e.index),
        Array.from({ length: size }, (_, i) => i),
      );
      const about = (kind: string, id: string) =>
        entries.filter((e: { kind: string; id: string }) => e.kind === kind && e.id === id).length;
      assert.equal(about('seal', done.body.seal.seal_id), 1);
      assert.equal(about('certificate', done.body.certificate_id), 1);
    });
  });
}
