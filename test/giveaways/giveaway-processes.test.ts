import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sha256 } from '../../src/giveaways/draw/certificate.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import { openStore } from '../../src/store/store.ts';
import { runTyche } from '../helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

const postgres = (await storeTargets()).find((target) => target.dialect === 'postgres')!;

/** Two real `tyche serve` processes on one PostgreSQL, as behind a load balancer. */
describe('two server processes on one PostgreSQL', { skip: postgres.skip }, () => {
  const servers: ServerProcess[] = [];
  const urls: string[] = [];
  let env: Record<string, string>;
  let cleanup: (() => Promise<void>) | undefined;

  before(async () => {
    const opened = await postgres.open();
    await opened.store.close();
    cleanup = opened.cleanup;
    env = { ...opened.env, TYCHE_SOURCES: 'system', PUBLIC_BASE_URL: 'https://tyche.example' } as Record<
      string,
      string
    >;
    // Started together: both look for the signing key at once and must settle on one.
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    urls.push(...servers.map((server) => server.url));
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await cleanup?.().catch(() => {});
  });

  test('20 parallel draws split across both: exactly one 200, the rest 409 already_drawn', async () => {
    const created = await runTyche(['keys', 'create', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout).key as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = (url: string, body: unknown) =>
      fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });

    const giveaway = await (
      await post(`${urls[0]}/api/v1/giveaways`, {
        title: 'Two processes',
        winners_count: 3,
        draw_mode: 'instant',
      })
    ).json();
    const participants = Array.from({ length: 100 }, (_, i) => ({ telegram_id: i + 1 }));
    const added = await post(`${urls[1]}/api/v1/giveaways/${giveaway.public_id}/participants`, {
      participants,
    });
    assert.equal(added.status, 200);

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${urls[i % 2]}/api/v1/giveaways/${giveaway.public_id}/draw`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        }),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 409).length, 19, statuses.join(','));
    for (const [i, body] of bodies.entries())
      if (statuses[i] === 409) assert.equal(body.code, 'already_drawn');
    const winner = bodies[statuses.indexOf(200)];
    assert.equal(winner.verify_url, `https://tyche.example/verify/${winner.certificate_id}`);

    for (const url of urls) {
      const seen = await (await fetch(`${url}/api/v1/giveaways/${giveaway.public_id}`, { headers })).json();
      assert.equal(seen.certificate_id, winner.certificate_id);
      assert.deepEqual(seen.winners, winner.winners);
    }
  });

  test('both processes publish the same single signing key, and it verifies the certificate', async () => {
    const sets = await Promise.all(
      urls.map(async (url) => (await fetch(`${url}/.well-known/tyche-keys.json`)).json()),
    );
    assert.equal(sets[0].keys.length, 1);
    assert.deepEqual(sets[1], sets[0]);
    const { key } = JSON.parse((await runTyche(['keys', 'create', '--json'], env)).stdout);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const giveaway = await (
      await fetch(`${urls[1]}/api/v1/giveaways`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Key', winners_count: 1, draw_mode: 'instant' }),
      })
    ).json();
    await fetch(`${urls[1]}/api/v1/giveaways/${giveaway.public_id}/participants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ participants: [{ telegram_id: 1 }, { telegram_id: 2 }] }),
    });
    const drawn = await (
      await fetch(`${urls[1]}/api/v1/giveaways/${giveaway.public_id}/draw`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      })
    ).json();
    assert.ok(drawn.certificate_id);
    const store = openStore({ DATA_DIR: env.DATA_DIR, DATABASE_URL: env.DATABASE_URL });
    try {
      const row = await store.db
        .selectFrom('certificates')
        .select('body')
        .where('id', '=', drawn.certificate_id)
        .executeTakeFirstOrThrow();
      const report = await verifyCertificate({ certificate: JSON.parse(row.body), keys: sets[0], sha256 });
      assert.equal(report.valid, true);
    } finally {
      await store.close();
    }
  });
});
