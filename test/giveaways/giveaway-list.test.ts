import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { securitySuite } from '../helpers/security-suite.ts';
import { storeTargets } from '../helpers/stores.ts';
import { API, createGiveaway, draw, expectProblem, readyGiveaway } from './giveaway-helpers.ts';

for (const target of await storeTargets()) {
  describe(`GET /api/v1/giveaways on ${target.dialect}`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
    });
    after(() => t?.close());

    const list = (key: string, query = '') => t.app.inject({ url: `${API}${query}`, headers: bearer(key) });

    test('newest first, cursor paging without gaps or repeats, total on every page', async () => {
      const key = await t.key();
      const made: string[] = [];
      for (let i = 0; i < 7; i++)
        made.push(await createGiveaway(t, key, { title: `G${i}`, winners_count: 1 }));
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(key, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.total, 7);
        assert.ok(body.giveaways.length <= 3);
        seen.push(...body.giveaways.map((g: { public_id: string }) => g.public_id));
        cursor = body.next_cursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(seen, made.reverse());
    });

    test('default limit 50, and the last page has next_cursor null', async () => {
      const key = await t.key();
      for (let i = 0; i < 52; i++) await createGiveaway(t, key);
      const first = (await list(key)).json();
      assert.equal(first.giveaways.length, 50);
      assert.equal(first.total, 52);
      assert.equal(typeof first.next_cursor, 'string');
      const second = (await list(key, `?cursor=${first.next_cursor}`)).json();
      assert.equal(second.giveaways.length, 2);
      assert.equal(second.next_cursor, null);
      const all = (await list(key, '?limit=200')).json();
      assert.equal(all.giveaways.length, 52);
      assert.equal(all.next_cursor, null);
    });

    test('summaries carry the contract fields', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key, { title: 'Summary', winners_count: 4, description: 'About' });
      const [summary] = (await list(key)).json().giveaways;
      assert.deepEqual(Object.keys(summary).sort(), [
        'certificate_id',
        'created_at',
        'description',
        'drawn_at',
        'participants_count',
        'public_id',
        'status',
        'title',
        'winners_count',
      ]);
      assert.equal(summary.public_id, id);
      assert.equal(summary.winners_count, 4);
      assert.equal(summary.description, 'About');
    });

    test('status filter; total counts what matches the filter', async () => {
      const key = await t.key();
      const drawnId = await readyGiveaway(t, key, 3);
      assert.equal((await draw(t, key, drawnId)).statusCode, 200);
      const activeIds = [await createGiveaway(t, key), await createGiveaway(t, key)];
      const active = (await list(key, '?status=active')).json();
      assert.equal(active.total, 2);
      assert.deepEqual(
        active.giveaways.map((g: { public_id: string }) => g.public_id),
        activeIds.reverse(),
      );
      const done = (await list(key, '?status=completed')).json();
      assert.equal(done.total, 1);
      assert.equal(done.giveaways[0].public_id, drawnId);
      assert.equal(done.giveaways[0].status, 'completed');
      assert.equal(done.giveaways[0].participants_count, 3);
      assert.match(done.giveaways[0].certificate_id, /^c_/);
      assert.equal((await list(key)).json().total, 3);
    });

    test("only the account's own giveaways; all keys of the account see them", async () => {
      const a = await t.services.accounts.createKey({ ownerTelegramId: 9_200_001 });
      const b = await t.services.accounts.createKey({ ownerTelegramId: 9_200_001 });
      const stranger = await t.key();
      await createGiveaway(t, a.key);
      await createGiveaway(t, stranger);
      assert.equal((await list(b.key)).json().total, 1);
      assert.equal((await list(stranger)).json().total, 1);
      const empty = (await list(await t.key())).json();
      assert.deepEqual(empty, { giveaways: [], total: 0, next_cursor: null });
    });

    test('bad parameters: 400 for range, value and cursor; 422 for types', async () => {
      const key = await t.key();
      for (const query of ['?limit=0', '?limit=201', '?limit=-1', '?status=drawn', '?status=']) {
        expectProblem(await list(key, query), 400, 'invalid_parameter');
      }
      for (const cursor of ['nope', 'Zm9v', Buffer.from('g1.0').toString('base64url'), 'x'.repeat(300)]) {
        const res = await list(key, `?cursor=${cursor}`);
        expectProblem(res, 400, 'invalid_parameter');
        assert.equal(res.json().errors[0].parameter, 'cursor');
      }
      for (const query of ['?limit=abc', '?limit=1.5', '?limit=1e2', '?limit=99999999999999999999']) {
        expectProblem(await list(key, query), 422, 'invalid_type');
      }
    });

    test('every call counts against the daily limit, refusals included, then 429', async () => {
      const key = await t.key({ dailyLimit: 3 });
      const first = await list(key);
      assert.equal(first.headers['x-ratelimit-limit'], '3');
      assert.equal(first.headers['x-ratelimit-remaining'], '2');
      const refused = await list(key, '?limit=0');
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.headers['x-ratelimit-remaining'], '1');
      const created = await t.app.inject({
        method: 'POST',
        url: API,
        headers: bearer(key),
        payload: { title: 'x', winners_count: 1 },
      });
      assert.equal(created.headers['x-ratelimit-remaining'], '0');
      const limited = await list(key);
      expectProblem(limited, 429, 'daily_limit_exceeded');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      expectProblem(
        await t.app.inject({ url: `${API}/${created.json().public_id}`, headers: bearer(key) }),
        429,
        'daily_limit_exceeded',
      );
    });

    securitySuite(
      () => t,
      () => ({ method: 'GET', url: `${API}?limit=5` }),
    );
  });
}
