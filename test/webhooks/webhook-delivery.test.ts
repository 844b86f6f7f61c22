import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import { createSender } from '../../src/webhooks/webhook-sender.ts';
import { signDelivery } from '../../src/webhooks/webhook-signature.ts';
import { addParticipants, createGiveaway, draw, people } from '../giveaways/giveaway-helpers.ts';
import {
  createVerifiable,
  seal,
  startVerifiableApp,
  type VerifiableApp,
} from '../giveaways/verifiable-helpers.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

const HOOKS = '/api/v1/webhooks';

async function subscribe(t: TestApp, key: string, url: string, events: string[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: HOOKS,
    headers: bearer(key),
    payload: { url, events },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; secret: string };
}

/** Runs the outbox the way the server does: until nothing is due, on the test's clock. */
function deliveryRunner(t: Pick<TestApp, 'services'>, clock: { now(): Date }, pollMs?: number): JobRunner {
  return createJobRunner({
    jobs: t.services.webhookDelivery.queue,
    clock,
    handlers: t.services.webhookDelivery.handlers,
    untilEmpty: true,
    pollMs,
  });
}

async function attempts(t: TestApp, key: string, id: string) {
  const res = await t.app.inject({ method: 'GET', url: `${HOOKS}/${id}/deliveries`, headers: bearer(key) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().deliveries as {
    message_id: string;
    event: string;
    attempt: number;
    status_code: number | null;
    error: string | null;
    at: string;
  }[];
}

test('signatures are byte-equal to the Standard Webhooks test vector and to its reference library', () => {
  // The specification's own example.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const vector = signDelivery(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
  assert.equal(vector, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  const reference = new Webhook(secret);
  for (const body of ['{}', '{"type":"giveaway.drawn","data":{"title":"Ünïcödé 🎉"}}']) {
    const at = new Date(1_800_000_000_000);
    assert.equal(signDelivery(secret, 'msg_abc', 1_800_000_000, body), reference.sign('msg_abc', at, body));
  }
});

for (const target of await storeTargets()) {
  describe(`webhook delivery (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    let clock: FakeClock;
    let runner: JobRunner;
    let receiver: WebhookReceiver;

    before(async () => {
      // Real time: the reference library refuses signatures more than 5 minutes from its clock.
      clock = createFakeClock(Date.now());
      t = await startTestApp({
        dialect: target.dialect,
        clock,
        config: { TYCHE_WEBHOOK_ALLOW_PRIVATE: 'true', TYCHE_WEBHOOK_RETRY_S: '5,300' },
      });
      runner = deliveryRunner(t, clock);
      receiver = await startReceiver();
    });
    after(async () => {
      await runner.stop();
      await receiver.close();
      await t.close();
    });

    test('one participant.joined per new entrant, in order, verified with the reference library', async () => {
      const key = await t.key();
      const hook = await subscribe(t, key, receiver.url, ['participant.joined', 'giveaway.drawn']);
      const id = await createGiveaway(t, key, { title: 'Spring <b>draw</b>', winners_count: 1 });
      await addParticipants(t, key, id, [...people(2), { telegram_id: 1 }]);
      await addParticipants(t, key, id, people(1, 3));
      const start = receiver.received.length;
      assert.equal(await runner.runDue(), 3, 'one attempt per new entrant; the repeat is no event');
      const got = receiver.received.slice(start);
      const verifier = new Webhook(hook.secret);
      const bodies = got.map((r) => {
        assert.equal(r.headers['content-type'], 'application/json');
        assert.match(String(r.headers['webhook-id']), /^msg_[0-9A-Za-z]{24}$/);
        assert.equal(r.headers['webhook-timestamp'], String(Math.floor(clock.now().getTime() / 1000)));
        return verifier.verify(r.body, r.headers as Record<string, string>) as {
          type: string;
          timestamp: string;
          data: { public_id: string; title: string; entrant: { telegram_id: number; entry_number: number } };
        };
      });
      assert.deepEqual(
        bodies.map((b) => [
          b.type,
          b.data.public_id,
          b.data.entrant.telegram_id,
          b.data.entrant.entry_number,
        ]),
        [
          ['participant.joined', id, 1, 1],
          ['participant.joined', id, 2, 2],
          ['participant.joined', id, 3, 3],
        ],
      );
      assert.equal(bodies[0].data.title, 'Spring <b>draw</b>');
      assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 3);
      // A body altered in transit fails the reference check.
      assert.throws(() =>
        verifier.verify(got[0].body.replace('Spring', 'Autumn'), got[0].headers as Record<string, string>),
      );

      const drawn = await draw(t, key, id);
      assert.equal(drawn.statusCode, 200);
      assert.equal(await runner.runDue(), 1);
      const last = verifier.verify(
        receiver.received.at(-1)!.body,
        receiver.received.at(-1)!.headers as Record<string, string>,
      ) as {
        type: string;
        data: { status: string; certificate_id: string; verify_url: string; winners: unknown[] };
      };
      assert.equal(last.type, 'giveaway.drawn');
      assert.equal(last.data.status, 'completed');
      assert.equal(last.data.certificate_id, drawn.json().certificate_id);
      assert.equal(last.data.verify_url, drawn.json().verify_url);
      assert.deepEqual(last.data.winners, drawn.json().winners);
      const listed = await attempts(t, key, hook.id);
      assert.equal(listed.length, 4);
      assert.deepEqual(listed[0], {
        message_id: receiver.received.at(-1)!.headers['webhook-id'],
        event: 'giveaway.drawn',
        attempt: 1,
        status_code: 200,
        error: null,
        at: clock.now().toISOString(),
      });
    });

    test('an account without endpoints records nothing; an endpoint hears only its events', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      await addParticipants(t, key, id, people(3));
      assert.equal(await runner.runDue(), 0);
      await subscribe(t, key, receiver.url, ['giveaway.drawn']);
      await addParticipants(t, key, id, people(2, 10));
      assert.equal(await runner.runDue(), 0);
    });

    test('retries follow TYCHE_WEBHOOK_RETRY_S with the same webhook-id, then the delivery is failed', async () => {
      const key = await t.key();
      const hook = await subscribe(t, key, receiver.url, ['webhook.test']);
      receiver.script([500, 503, 500]);
      const queued = await t.app.inject({
        method: 'POST',
        url: `${HOOKS}/${hook.id}/test`,
        headers: bearer(key),
      });
      assert.equal(queued.statusCode, 202);
      const messageId = queued.json().message_id;
      const start = receiver.received.length;
      assert.equal(await runner.runDue(), 1);
      clock.advance(4_999);
      assert.equal(await runner.runDue(), 0, 'not before the first delay');
      clock.advance(1);
      assert.equal(await runner.runDue(), 1);
      clock.advance(299_999);
      assert.equal(await runner.runDue(), 0);
      clock.advance(1);
      assert.equal(await runner.runDue(), 1);
      clock.advance(10 * 86_400_000);
      assert.equal(await runner.runDue(), 0, 'two retries, then failed for good');
      const got = receiver.received.slice(start);
      assert.deepEqual(
        got.map((r) => r.headers['webhook-id']),
        [messageId, messageId, messageId],
      );
      const timestamps = got.map((r) => Number(r.headers['webhook-timestamp']));
      assert.deepEqual([timestamps[1] - timestamps[0], timestamps[2] - timestamps[1]], [5, 300]);
      const listed = await attempts(t, key, hook.id);
      assert.deepEqual(
        listed.map((a) => [a.attempt, a.status_code, a.error]),
        [
          [3, 500, 'receiver answered 500'],
          [2, 503, 'receiver answered 503'],
          [1, 500, 'receiver answered 500'],
        ],
      );
    });

    test("one giveaway's events reach an endpoint in order: a failing first event holds back the next", async () => {
      const key = await t.key();
      await subscribe(t, key, receiver.url, ['participant.joined']);
      const a = await createGiveaway(t, key);
      const b = await createGiveaway(t, key);
      await addParticipants(t, key, a, people(1, 1));
      await addParticipants(t, key, b, people(1, 1));
      await addParticipants(t, key, a, people(1, 2));
      let failed = false;
      receiver.answer((r) => {
        const data = JSON.parse(r.body).data;
        if (failed || data.public_id !== a) return undefined;
        failed = true;
        return 500;
      });
      const start = receiver.received.length;
      try {
        assert.equal(
          await runner.runDue(),
          2,
          "a's first (failing) and b's; a's second waits behind a's first",
        );
      } finally {
        receiver.answer(undefined);
      }
      const first = receiver.received.slice(start).map((r) => JSON.parse(r.body).data.public_id);
      assert.deepEqual(first.sort(), [a, b].sort());
      assert.equal(await runner.runDue(), 0);
      clock.advance(5_000);
      assert.equal(await runner.runDue(), 2, "a's first again, then a's second");
      const entrants = receiver.received
        .slice(start)
        .map((r) => JSON.parse(r.body).data)
        .filter((d) => d.public_id === a)
        .map((d) => d.entrant.telegram_id);
      assert.deepEqual(entrants, [1, 1, 2]);
    });

    test('a redirect is a failed attempt and is not followed; deleting an endpoint cancels its pending deliveries', async () => {
      const elsewhere = await startReceiver();
      const redirecting = await startReceiver({ redirectTo: elsewhere.url });
      try {
        const key = await t.key();
        const hook = await subscribe(t, key, redirecting.url, ['webhook.test']);
        redirecting.script([302]);
        await t.app.inject({ method: 'POST', url: `${HOOKS}/${hook.id}/test`, headers: bearer(key) });
        assert.equal(await runner.runDue(), 1);
        assert.equal(redirecting.received.length, 1);
        assert.equal(elsewhere.received.length, 0);
        const [attempt] = await attempts(t, key, hook.id);
        assert.deepEqual([attempt.status_code, attempt.error], [302, 'redirects are not followed']);
        await t.app.inject({ method: 'DELETE', url: `${HOOKS}/${hook.id}`, headers: bearer(key) });
        clock.advance(5_000);
        assert.equal(await runner.runDue(), 0);
        assert.equal(redirecting.received.length, 1);
        assert.equal(await t.services.webhookDelivery.queue.pendingCount(), 0);
      } finally {
        await elsewhere.close();
        await redirecting.close();
      }
    });
  });
}

describe('webhook events of a verifiable giveaway', () => {
  let t: VerifiableApp;
  let runner: JobRunner;
  let receiver: WebhookReceiver;
  before(async () => {
    t = await startVerifiableApp({ config: { TYCHE_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    runner = deliveryRunner(t, t.clock);
    receiver = await startReceiver();
  });
  after(async () => {
    await runner.stop();
    await receiver.close();
    await t.close();
  });

  test('giveaway.sealed carries the signed seal; giveaway.drawn the certificate, after the round', async () => {
    const key = await t.key();
    await subscribe(t, key, receiver.url, ['giveaway.sealed', 'giveaway.drawn']);
    const id = await createVerifiable(t, key, { winners_count: 2 });
    await addParticipants(t, key, id, people(5));
    const sealed = await seal(t, key, id);
    assert.equal(sealed.statusCode, 200, sealed.body);
    assert.equal(await runner.runDue(), 1);
    const sealEvent = JSON.parse(receiver.received.at(-1)!.body);
    assert.equal(sealEvent.type, 'giveaway.sealed');
    assert.equal(sealEvent.data.status, 'sealed');
    assert.deepEqual(sealEvent.data.seal, sealed.json().seal);
    assert.equal(sealEvent.data.seal_log_index, sealed.json().seal_log_index);

    t.reachRound(sealed.json().seal.beacon.round);
    await t.runner.runDue();
    assert.equal(await runner.runDue(), 1);
    const drawnEvent = JSON.parse(receiver.received.at(-1)!.body);
    const giveaway = (
      await t.app.inject({ method: 'GET', url: `/api/v1/giveaways/${id}`, headers: bearer(key) })
    ).json();
    assert.equal(drawnEvent.type, 'giveaway.drawn');
    assert.equal(drawnEvent.data.certificate_id, giveaway.certificate_id);
    assert.equal(drawnEvent.data.verify_url, giveaway.verify_url);
    assert.deepEqual(drawnEvent.data.winners, giveaway.winners);
  });
});

test('the sender refuses a private address at connection time, whatever the endpoint was created with', async () => {
  const receiver = await startReceiver();
  try {
    const send = createSender({ timeoutMs: 5_000, allowPrivate: false });
    const byName = await send({
      url: receiver.url.replace('127.0.0.1', 'localhost'),
      headers: {},
      body: '{}',
    });
    assert.equal(byName.statusCode, null);
    assert.match(byName.error!, /loopback, private or link-local/);
    const byAddress = await send({ url: receiver.url, headers: {}, body: '{}' });
    assert.equal(byAddress.statusCode, null);
    assert.match(byAddress.error!, /loopback, private or link-local/);
    assert.equal(receiver.received.length, 0);
  } finally {
    await receiver.close();
  }
});

test('an attempt without an answer in time fails and lets go of the connection', async () => {
  const server = createServer(() => {});
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as { port: number };
    const send = createSender({ timeoutMs: 50, allowPrivate: true });
    const result = await send({ url: `http://127.0.0.1:${port}/slow`, headers: {}, body: '{}' });
    assert.deepEqual(result, { statusCode: null, error: 'no answer within 0.05 s' });
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('a receiver that never answers holds only its own delivery, never an API answer', async () => {
  let hung = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer(() => {
    hung++;
  });
  server.on('connection', (socket) => sockets.add(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const t = await startTestApp({ config: { TYCHE_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const runner = deliveryRunner(t, t.services.clock, 5);
  try {
    const { port } = server.address() as { port: number };
    const key = await t.key();
    await subscribe(t, key, `http://127.0.0.1:${port}/slow`, ['participant.joined']);
    const id = await createGiveaway(t, key);
    runner.start();
    await addParticipants(t, key, id, people(1));
    while (hung === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // The attempt is open and unanswered; the API goes on answering meanwhile.
    for (let i = 0; i < 10; i++) await addParticipants(t, key, id, people(1, 100 + i));
    const res = await t.app.inject({ url: `/api/v1/giveaways/${id}`, headers: bearer(key) });
    assert.equal(res.json().participants_count, 11);
    assert.equal(hung, 1, "the giveaway's next events wait behind the unanswered one");
  } finally {
    for (const socket of sockets) socket.destroy();
    server.close();
    await runner.stop();
    await t.close();
  }
});
