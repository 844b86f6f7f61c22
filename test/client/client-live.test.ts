import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTycheClient, type FetchLike, type TycheClient } from '../../clients/typescript/src/index.ts';
import type { CertificateV2 } from '../../src/proof/v2-types.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import { people } from '../giveaways/giveaway-helpers.ts';
import { startVerifiableApp, type VerifiableApp } from '../giveaways/verifiable-helpers.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

describe('the typed client against a live server', () => {
  let t: VerifiableApp;
  let baseUrl: string;
  before(async () => {
    t = await startVerifiableApp();
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  /** A client with a business key of its own; waits between tries are skipped, not slept. */
  const clientOf = (key: string, fetch?: FetchLike): TycheClient =>
    createTycheClient({ baseUrl, apiKey: key, fetch, retry: { sleep: async () => {} } });

  test('create, add, seal, draw (202, then 200 at the round), and verify the certificate', async () => {
    const client = clientOf(await t.key());

    const me = await client.GET('/api/v1/me');
    assert.equal(me.data?.plan, 'business');

    const created = await client.POST('/api/v1/giveaways', {
      body: { title: 'Spring giveaway', winners_count: 2, reserve_count: 1 },
    });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    const id = created.data!.public_id;
    assert.equal(created.data!.status, 'active');
    assert.equal(created.data!.draw_mode, 'verifiable');
    assert.equal(created.response.headers.get('location'), `/api/v1/giveaways/${id}`);

    const added = await client.POST('/api/v1/giveaways/{public_id}/participants', {
      params: { path: { public_id: id } },
      body: { participants: people(12, 500) },
    });
    assert.deepEqual(added.data, { added: 12, duplicates: 0, participants_count: 12 });

    const sealed = await client.POST('/api/v1/giveaways/{public_id}/seal', {
      params: { path: { public_id: id } },
    });
    assert.equal(sealed.data?.status, 'sealed', JSON.stringify(sealed.error));
    const seal = sealed.data!.seal!;
    assert.equal(seal.entrants.count, 12);

    const early = await client.POST('/api/v1/giveaways/{public_id}/draw', {
      params: { path: { public_id: id } },
    });
    assert.equal(early.response.status, 202, JSON.stringify(early.error));
    assert.ok(Number(early.response.headers.get('retry-after')) >= 1);
    assert.equal(early.response.headers.get('location'), `/api/v1/giveaways/${id}`);
    assert.ok(early.data && 'status' in early.data && early.data.status === 'sealed');

    t.reachRound(seal.beacon.round);
    // A new call has a key of its own: it is drawn now rather than given the 202 again.
    const drawn = await client.POST('/api/v1/giveaways/{public_id}/draw', {
      params: { path: { public_id: id } },
    });
    assert.equal(drawn.response.status, 200, JSON.stringify(drawn.error));
    // The 200 body is the draw's result; the 202 body is the giveaway, which names no algorithm.
    assert.ok(drawn.data && 'algorithm' in drawn.data);
    const result = drawn.data;
    assert.equal(result.winners.length, 2);
    assert.equal(result.algorithm, 'tyche-draw-v2');
    assert.equal(result.qrng_source, 'drand');
    assert.equal(result.verify_url, `http://127.0.0.1:8080/verify/${result.certificate_id}`);

    const again = await client.POST('/api/v1/giveaways/{public_id}/draw', {
      params: { path: { public_id: id } },
    });
    assert.equal(again.response.status, 409);
    assert.equal(again.error?.code, 'already_drawn');
    assert.equal(again.response.headers.get('content-type'), 'application/problem+json; charset=utf-8');

    const giveaway = await client.GET('/api/v1/giveaways/{public_id}', {
      params: { path: { public_id: id } },
    });
    assert.equal(giveaway.data?.status, 'completed');
    assert.deepEqual(
      giveaway.data?.winners?.map((w) => w.telegram_id),
      result.winners.map((w) => w.telegram_id),
    );

    // The public routes need no key: the certificate as JSON and the keys that sign it.
    const anyone = createTycheClient({ baseUrl });
    const certificate = await anyone.GET('/verify/{certificate_id}', {
      params: { path: { certificate_id: `${result.certificate_id}.json` } },
    });
    assert.equal(certificate.response.status, 200);
    const cert = certificate.data as unknown as CertificateV2;
    assert.equal(cert.certificate_id, result.certificate_id);
    const keys = await anyone.GET('/.well-known/tyche-keys.json');
    assert.equal(keys.response.status, 200);
    const report = await verifyCertificate({
      certificate: cert,
      keys: keys.data as Parameters<typeof verifyCertificate>[0]['keys'],
      sha256,
      chains: [t.drand.info],
    });
    assert.ok(report.valid, JSON.stringify(report.checks.filter((c) => !c.ok)));
    assert.deepEqual(
      cert.winners.map((w) => w.telegram_id),
      result.winners.map((w) => w.telegram_id),
    );
  });

  test('a POST whose answer is lost is retried with its key: the server answers it once and replays it', async () => {
    const key = await t.key();
    const keysSent: (string | null)[] = [];
    let lose = true;
    // The request reaches the server and is carried out; the client then loses the answer.
    const lossy: FetchLike = async (request, init) => {
      keysSent.push(request.headers.get('idempotency-key'));
      const response = await fetch(request, init);
      if (!lose) return response;
      lose = false;
      await response.body?.cancel();
      throw new TypeError('fetch failed');
    };
    const client = clientOf(key, lossy);
    const created = await client.POST('/api/v1/giveaways', {
      body: { title: 'Retried', winners_count: 1 },
    });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    assert.equal(created.response.headers.get('idempotent-replayed'), 'true');
    assert.equal(keysSent.length, 2);
    assert.ok(keysSent[0]);
    assert.equal(keysSent[1], keysSent[0]);

    const list = await client.GET('/api/v1/giveaways');
    assert.equal(list.data?.total, 1, 'one giveaway, not two');
    assert.equal(list.data?.giveaways[0].public_id, created.data?.public_id);
  });

  test('an error is typed as the problem the server sends', async () => {
    const client = clientOf(await t.key());
    const res = await client.GET('/api/v1/random/int', { params: { query: { min: 6, max: 1 } } });
    assert.equal(res.response.status, 400);
    assert.equal(res.error?.code, 'invalid_parameter');
    assert.equal(res.error?.type, 'http://127.0.0.1:8080/docs/errors#invalid_parameter');
    assert.equal(res.error?.request_id, res.response.headers.get('x-request-id'));
  });
});
