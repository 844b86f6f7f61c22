import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { securitySuite } from '../helpers/security-suite.ts';
import { API, createGiveaway, expectProblem, readyGiveaway, UNKNOWN_IDS } from './giveaway-helpers.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const create = async (payload: unknown, key?: string) =>
  t.app.inject({
    method: 'POST',
    url: API,
    headers: bearer(key ?? (await t.key())),
    payload: payload as object,
  });

describe('POST /api/v1/giveaways', () => {
  test('201 with Location and the full giveaway; the title is trimmed', async () => {
    const res = await create({
      title: '  Launch — 3 × headphones \n',
      winners_count: 3,
      description: 'For subscribers',
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.equal(res.headers.location, `/api/v1/giveaways/${body.public_id}`);
    assert.match(body.public_id, /^[0-9A-Za-z]{12}$/);
    assert.deepEqual(
      { ...body, public_id: undefined, created_at: undefined },
      {
        draw_mode: 'verifiable',
        reserve_count: 0,
        ends_at: null,
        claim_within: null,
        public_url: `http://127.0.0.1:8080/g/${body.public_id}`,
        terms: null,
        terms_sha256: null,
        public_id: undefined,
        title: 'Launch — 3 × headphones',
        status: 'active',
        participants_count: 0,
        winners_count: 3,
        description: 'For subscribers',
        created_at: undefined,
        drawn_at: null,
        certificate_id: null,
      },
    );
    assert.ok(Math.abs(Date.parse(body.created_at) - Date.now()) < 60_000);
    assert.equal('join_url' in body, false, 'no join_url while the bot is not configured');
  });

  test('title and description limits: 200 characters after trimming, 4000 characters', async () => {
    const ok = await create({
      title: ` ${'é'.repeat(200)}  `,
      winners_count: 1000,
      description: '😀'.repeat(4000),
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().title, 'é'.repeat(200));
    assert.equal(ok.json().description, '😀'.repeat(4000));
    for (const [payload, parameter] of [
      [{ title: 'x'.repeat(201), winners_count: 1 }, 'title'],
      [{ title: '   ', winners_count: 1 }, 'title'],
      [{ title: '', winners_count: 1 }, 'title'],
      [{ title: 'ok', winners_count: 0 }, 'winners_count'],
      [{ title: 'ok', winners_count: 1001 }, 'winners_count'],
      [{ title: 'ok', winners_count: -5 }, 'winners_count'],
      [{ title: 'ok', winners_count: 1, description: 'd'.repeat(4001) }, 'description'],
      [{ title: 'ok', winners_count: 1, colour: 'red' }, 'colour'],
    ] as const) {
      const res = await create(payload);
      expectProblem(res, 400, 'invalid_parameter');
      assert.equal(res.json().errors[0].parameter, parameter, res.body);
    }
  });

  test('missing fields → 400 missing_parameter', async () => {
    for (const [payload, parameter] of [
      [{ winners_count: 1 }, 'title'],
      [{ title: 'x' }, 'winners_count'],
      [{}, 'title'],
    ] as const) {
      const res = await create(payload);
      expectProblem(res, 400, 'missing_parameter');
      assert.ok(
        res.json().errors.some((e: { parameter: string }) => e.parameter === parameter),
        res.body,
      );
    }
  });

  test('wrong types → 422 invalid_type, also when a range is wrong too', async () => {
    for (const payload of [
      { title: 'x', winners_count: '3' },
      { title: 'x', winners_count: 1.5 },
      { title: 'x', winners_count: 2 ** 53 },
      { title: 'x', winners_count: true },
      { title: 42, winners_count: 1 },
      { title: ['x'], winners_count: 1 },
      { title: 'x', winners_count: 1, description: 7 },
      { title: 'x'.repeat(300), winners_count: 'many' },
    ]) {
      expectProblem(await create(payload), 422, 'invalid_type');
    }
  });

  test('a body that is not a JSON object → 400 invalid_json; not JSON at all → 415', async () => {
    const key = await t.key();
    for (const payload of ['{"title": ', '[1,2]', '"text"', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: API,
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload,
      });
      expectProblem(res, 400, 'invalid_json');
    }
    const form = await t.app.inject({
      method: 'POST',
      url: API,
      headers: { ...bearer(key), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'title=x&winners_count=1',
    });
    expectProblem(form, 415, 'unsupported_media_type');
  });

  test('join_url appears once the bot supplies its link', async () => {
    t.services.giveaways.setJoinUrl((id) => `https://t.me/tyche_bot?start=g_${id}`);
    try {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const res = await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) });
      assert.equal(res.json().join_url, `https://t.me/tyche_bot?start=g_${id}`);
    } finally {
      t.services.giveaways.setJoinUrl(undefined);
    }
  });

  securitySuite(
    () => t,
    () => ({ method: 'POST', url: API, payload: { title: 'x', winners_count: 1 } }),
  );
});

describe('GET /api/v1/giveaways/{public_id}', () => {
  test('the owner sees the full giveaway; every key of the account does', async () => {
    const created = await t.services.accounts.createKey({ plan: 'business', ownerTelegramId: 9_100_001 });
    const second = await t.services.accounts.createKey({ ownerTelegramId: 9_100_001 });
    const id = await createGiveaway(t, created.key, { title: 'Shared', winners_count: 2, description: 'd' });
    const res = await t.app.inject({ url: `${API}/${id}`, headers: bearer(second.key) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().title, 'Shared');
    assert.equal(res.json().winners_count, 2);
    assert.equal(res.json().winners, undefined, 'no winners before the draw');
  });

  test("another account's giveaway → 403 forbidden", async () => {
    const id = await createGiveaway(t, await t.key());
    expectProblem(
      await t.app.inject({ url: `${API}/${id}`, headers: bearer(await t.key()) }),
      403,
      'forbidden',
    );
  });

  test('an id that names no giveaway, whatever its form → 404 not_found', async () => {
    const key = await t.key();
    for (const id of UNKNOWN_IDS) {
      const res = await t.app.inject({ url: `${API}/${encodeURIComponent(id)}`, headers: bearer(key) });
      expectProblem(res, 404, 'not_found');
    }
  });

  test('after the draw: status completed, drawn_at, certificate_id, verify_url and winners', async () => {
    const key = await t.key();
    const id = await readyGiveaway(t, key, 5, 2);
    const drawn = await t.app.inject({ method: 'POST', url: `${API}/${id}/draw`, headers: bearer(key) });
    assert.equal(drawn.statusCode, 200, drawn.body);
    const body = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
    assert.equal(body.status, 'completed');
    assert.equal(body.drawn_at, drawn.json().drawn_at);
    assert.equal(body.certificate_id, drawn.json().certificate_id);
    assert.equal(body.verify_url, drawn.json().verify_url);
    assert.deepEqual(body.winners, drawn.json().winners);
  });

  securitySuite(
    () => t,
    async (key) => ({ method: 'GET', url: `${API}/${await createGiveaway(t, key)}` }),
  );
});
