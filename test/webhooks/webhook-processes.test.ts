import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { runTyche } from '../helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

const targets = await storeTargets();
const postgres = targets.find((target) => target.dialect === 'postgres')!;

async function api(
  url: string,
  key: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** Resolves with the receiver's requests once `count` arrived; fails the test after `ms`. */
async function received(receiver: WebhookReceiver, count: number, ms = 30_000) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`only ${receiver.received.length} of ${count} deliveries arrived`)),
      ms,
    );
  });
  try {
    return await Promise.race([receiver.waitFor(count), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const entrantsOf = (receiver: WebhookReceiver) =>
  receiver.received.map((r) => JSON.parse(r.body).data.entrant.telegram_id as number);

describe('webhook delivery survives kill -9', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  test('events committed before the kill are delivered after the restart, none lost', async () => {
    const opened = await targets[0].open();
    await opened.store.close();
    cleanups.push(opened.cleanup);
    const env = {
      ...opened.env,
      TYCHE_SOURCES: 'system',
      TYCHE_WEBHOOK_ALLOW_PRIVATE: 'true',
      TYCHE_WEBHOOK_RETRY_S: '1,1,1,1,1,1,1,1,1,1',
    } as Record<string, string>;
    // A receiver that is down when the events are committed: its port is taken, then freed.
    const probe = await startReceiver();
    const port = Number(new URL(probe.url).port);
    await probe.close();

    const key = JSON.parse((await runTyche(['keys', 'create', '--json'], env)).stdout).key as string;
    let server: ServerProcess = await startServerProcess(env);
    cleanups.push(() => server.stop());
    const hook = await api(server.url, key, '/webhooks', {
      url: `http://127.0.0.1:${port}/hooks`,
      events: ['participant.joined'],
    });
    assert.equal(hook.status, 201);
    const giveaway = await api(server.url, key, '/giveaways', {
      title: 'Kill',
      winners_count: 1,
      draw_mode: 'instant',
    });
    const added = await api(server.url, key, `/giveaways/${giveaway.json.public_id}/participants`, {
      participants: [{ telegram_id: 1 }, { telegram_id: 2 }, { telegram_id: 3 }],
    });
    assert.equal(added.status, 200);
    // Acknowledged, then killed before anything could be delivered.
    assert.equal(await server.stop('SIGKILL'), null);

    const receiver = await startReceiver({ port });
    cleanups.push(() => receiver.close());
    server = await startServerProcess(env);
    await received(receiver, 3);
    assert.deepEqual(entrantsOf(receiver).slice(0, 3), [1, 2, 3]);
    const attempts = await api(server.url, key, `/webhooks/${hook.json.id}/deliveries`);
    const delivered = attempts.json.deliveries.filter((a: { status_code: number }) => a.status_code === 200);
    assert.equal(delivered.length, 3);
  });
});

describe('webhooks and Idempotency-Key on two processes sharing PostgreSQL', { skip: postgres.skip }, () => {
  const servers: ServerProcess[] = [];
  let cleanup: (() => Promise<void>) | undefined;
  let receiver: WebhookReceiver | undefined;
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver?.close();
    await cleanup?.().catch(() => {});
  });

  test('each event is delivered once, in order; one idempotent create across both', async () => {
    const opened = await postgres.open();
    await opened.store.close();
    cleanup = opened.cleanup;
    const env = { ...opened.env, TYCHE_SOURCES: 'system', TYCHE_WEBHOOK_ALLOW_PRIVATE: 'true' } as Record<
      string,
      string
    >;
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    const [a, b] = servers.map((s) => s.url);
    const key = JSON.parse((await runTyche(['keys', 'create', '--json'], env)).stdout).key as string;

    const body = { title: 'Two processes', winners_count: 1, draw_mode: 'instant' };
    const creates = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api(i % 2 ? a : b, key, '/giveaways', body, { 'idempotency-key': 'one' }),
      ),
    );
    const list = await api(a, key, '/giveaways');
    assert.equal(list.json.total, 1);
    const ok = creates.filter((r) => r.status === 201);
    assert.equal(new Set(ok.map((r) => r.json.public_id)).size, 1);
    assert.ok(creates.every((r) => r.status === 201 || r.status === 409));

    receiver = await startReceiver();
    await api(a, key, '/webhooks', { url: receiver.url, events: ['participant.joined'] });
    const id = list.json.giveaways[0].public_id;
    for (let i = 0; i < 4; i++) {
      const participants = Array.from({ length: 5 }, (_, j) => ({ telegram_id: i * 5 + j + 1 }));
      assert.equal(
        (await api(i % 2 ? a : b, key, `/giveaways/${id}/participants`, { participants })).status,
        200,
      );
    }
    await received(receiver, 20);
    assert.deepEqual(
      entrantsOf(receiver),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 20);
  });
});
