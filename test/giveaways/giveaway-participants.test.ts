import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../src/shared/errors.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { securitySuite } from '../helpers/security-suite.ts';
import {
  API,
  addParticipants,
  createGiveaway,
  draw,
  expectProblem,
  people,
  readyGiveaway,
  UNKNOWN_IDS,
} from './giveaway-helpers.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const post = (key: string, id: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `${API}/${id}/participants`,
    headers: bearer(key),
    payload: payload as object,
  });

const csvRows = async (key: string, id: string) =>
  (await t.app.inject({ url: `${API}/${id}/participants.csv`, headers: bearer(key) })).body
    .trim()
    .split('\r\n')
    .slice(1);

describe('POST /api/v1/giveaways/{public_id}/participants', () => {
  test('adds, counts, and is idempotent per telegram_id (repeats in one call included)', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key);
    assert.deepEqual(await addParticipants(t, key, id, people(3)), {
      added: 3,
      duplicates: 0,
      participants_count: 3,
    });
    const again = await addParticipants(t, key, id, [
      { telegram_id: 2, username: 'renamed' },
      { telegram_id: 4 },
      { telegram_id: 4, username: 'twice' },
    ]);
    assert.deepEqual(again, { added: 1, duplicates: 2, participants_count: 4 });
    const rows = await csvRows(key, id);
    assert.equal(rows.length, 4);
    assert.match(rows[1], /^2,user2,/, 'a duplicate keeps the first entry');
    assert.match(rows[3], /^4,,/);
    const giveaway = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
    assert.equal(giveaway.participants_count, 4);
  });

  test('names are stored as given, except a leading @ of the username', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key);
    await addParticipants(t, key, id, [
      { telegram_id: 10, username: '@alice', first_name: '  Alice  ' },
      { telegram_id: 11, username: '@@double', first_name: 'Zoë 😀' },
      { telegram_id: 12, username: 'plain', first_name: '' },
      { telegram_id: 13, username: '@' },
    ]);
    assert.deepEqual(
      await csvRows(key, id).then((rows) => rows.map((r) => r.split(',').slice(0, 3).join(','))),
      ['10,alice,  Alice  ', "11,'@double,Zoë 😀", '12,plain,', '13,,'],
    );
  });

  test('10 000 per call is accepted; telegram ids up to 2^53 − 1', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key);
    const res = await addParticipants(t, key, id, [
      ...people(9_999, 1_000_000),
      { telegram_id: Number.MAX_SAFE_INTEGER },
    ]);
    assert.deepEqual(res, { added: 10_000, duplicates: 0, participants_count: 10_000 });
  });

  test('400 for empty, too many, non-positive ids, unknown fields; missing → 400; types → 422', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key);
    for (const payload of [
      { participants: [] },
      { participants: people(10_001) },
      { participants: [{ telegram_id: 0 }] },
      { participants: [{ telegram_id: -7 }] },
      { participants: [{ telegram_id: 1, last_name: 'x' }] },
      { participants: [{ telegram_id: 1, username: 'u'.repeat(257) }] },
      { participants: people(1), extra: true },
    ]) {
      expectProblem(await post(key, id, payload), 400, 'invalid_parameter');
    }
    expectProblem(await post(key, id, {}), 400, 'missing_parameter');
    expectProblem(await post(key, id, { participants: [{ username: 'x' }] }), 400, 'missing_parameter');
    for (const payload of [
      { participants: [{ telegram_id: '5' }] },
      { participants: [{ telegram_id: 1.5 }] },
      { participants: [{ telegram_id: 2 ** 53 }] },
      { participants: [{ telegram_id: 5, username: 42 }] },
      { participants: [{ telegram_id: 5, first_name: null }] },
      { participants: { telegram_id: 5 } },
      { participants: [5] },
      { participants: [{ telegram_id: -1.5 }] },
    ]) {
      expectProblem(await post(key, id, payload), 422, 'invalid_type');
    }
    assert.equal(
      (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json().participants_count,
      0,
    );
  });

  test('after the draw → 409 giveaway_completed, nothing added', async () => {
    const key = await t.key();
    const id = await readyGiveaway(t, key, 2);
    assert.equal((await draw(t, key, id)).statusCode, 200);
    expectProblem(await post(key, id, { participants: people(1, 500) }), 409, 'giveaway_completed');
    assert.equal((await csvRows(key, id)).length, 2);
  });

  test("another account's → 403; unknown → 404", async () => {
    const id = await createGiveaway(t, await t.key());
    const other = await t.key();
    expectProblem(await post(other, id, { participants: people(1) }), 403, 'forbidden');
    for (const unknown of UNKNOWN_IDS) {
      expectProblem(
        await post(other, encodeURIComponent(unknown), { participants: people(1) }),
        404,
        'not_found',
      );
    }
  });

  securitySuite(
    () => t,
    async (key) => ({
      method: 'POST',
      url: `${API}/${await createGiveaway(t, key)}/participants`,
      payload: { participants: people(2) },
    }),
  );
});

describe('giveaways.join (the Telegram bot)', () => {
  test('joined with entry numbers in join order; a repeat is a duplicate keeping its number', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key, { title: 'Bot giveaway', winners_count: 1 });
    const giveaways = t.services.giveaways;
    const first = await giveaways.join(id, { telegram_id: 700, username: '@first', first_name: 'F' });
    const { receiptUrl, ...rest } = first;
    assert.deepEqual(rest, {
      status: 'joined',
      entryNumber: 1,
      giveaway: { public_id: id, title: 'Bot giveaway' },
    });
    assert.match(receiptUrl!, new RegExp(`^http://127\\.0\\.0\\.1:8080/g/${id}/receipt#700\\.[0-9a-f]{32}$`));
    assert.equal((await giveaways.join(id, { telegram_id: 300 })).entryNumber, 2);
    const repeat = await giveaways.join(id, { telegram_id: 700, username: 'changed' });
    assert.equal(repeat.receiptUrl, receiptUrl, 'the same salt, so the same receipt');
    assert.deepEqual(
      { ...repeat, receiptUrl: undefined },
      {
        receiptUrl: undefined,
        status: 'duplicate',
        entryNumber: 1,
        giveaway: { public_id: id, title: 'Bot giveaway' },
      },
    );
    await addParticipants(t, key, id, people(2, 900));
    assert.equal((await giveaways.join(id, { telegram_id: 1 })).entryNumber, 5);
    const rows = await csvRows(key, id);
    assert.ok(
      rows.some((r) => r.startsWith('700,first,F,')),
      'stored before join resolved',
    );
  });

  test('concurrent joins get distinct entry numbers 1…N', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key);
    const joins = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.services.giveaways.join(id, { telegram_id: 5000 + (i % 30) })),
    );
    const numbers = new Map<number, number>();
    for (const [i, j] of joins.entries()) {
      const tid = 5000 + (i % 30);
      if (numbers.has(tid)) assert.equal(j.entryNumber, numbers.get(tid));
      else numbers.set(tid, j.entryNumber);
    }
    assert.deepEqual(
      [...numbers.values()].sort((a, b) => a - b),
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    assert.equal(joins.filter((j) => j.status === 'joined').length, 30);
  });

  test('a telegram_id that is not a positive safe integer is refused before anything is read', async () => {
    for (const telegram_id of [0, -1, 1.5, 2 ** 53, Number.NaN]) {
      await assert.rejects(t.services.giveaways.join('AAAAAAAAAAAA', { telegram_id }), (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'invalid_parameter');
        return true;
      });
    }
  });

  test('unknown → not_found; completed → giveaway_completed', async () => {
    await assert.rejects(t.services.giveaways.join('AAAAAAAAAAAA', { telegram_id: 1 }), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'not_found');
      return true;
    });
    const key = await t.key();
    const id = await readyGiveaway(t, key);
    assert.equal((await draw(t, key, id)).statusCode, 200);
    await assert.rejects(t.services.giveaways.join(id, { telegram_id: 99 }), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'giveaway_completed');
      return true;
    });
  });
});
