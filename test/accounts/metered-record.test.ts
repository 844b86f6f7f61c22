import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

/**
 * The random endpoints count a request in the transaction that writes its operations record:
 * a count without a record, or a record without a count, cannot exist.
 */
for (const target of await storeTargets()) {
  describe(`daily-limit count and operations record in one transaction (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
    });
    after(() => t.close());

    const me = async (key: string) =>
      (await t.app.inject({ url: '/api/v1/me', headers: bearer(key) })).json() as {
        requests_today: number;
        key_prefix: string;
      };
    const records = async (key: string) => {
      const { key_prefix } = await me(key);
      const row = await t.store.db
        .selectFrom('operations')
        .innerJoin('api_keys', 'api_keys.id', 'operations.key_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('api_keys.prefix', '=', key_prefix.replace(/…$/, ''))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };

    test('racing for the last places: exactly the limit passes, with exactly as many records', async () => {
      const key = await t.key({ dailyLimit: 7 });
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          t.app.inject({
            url: i % 2 ? '/api/v1/random/int?min=1&max=6&count=3' : '/api/v1/random/bytes?n=8',
            headers: bearer(key),
          }),
        ),
      );
      assert.equal(answers.filter((a) => a.statusCode === 200).length, 7);
      assert.equal(answers.filter((a) => a.statusCode === 429).length, 18);
      assert.equal((await me(key)).requests_today, 7);
      assert.equal(await records(key), 7);
    });

    test('a record that cannot be written takes its count with it', async () => {
      const key = await t.key({ dailyLimit: 5 });
      assert.equal(
        (await t.app.inject({ url: '/api/v1/random/bytes?n=4', headers: bearer(key) })).statusCode,
        200,
      );
      if (target.dialect === 'sqlite') {
        await sql`create trigger refuse_records before insert on operations begin select raise(abort, 'refused'); end`.execute(
          t.store.db,
        );
      } else {
        await sql`create function refuse_records() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(
          t.store.db,
        );
        await sql`create trigger refuse_records before insert on operations for each row execute function refuse_records()`.execute(
          t.store.db,
        );
      }
      try {
        const res = await t.app.inject({ url: '/api/v1/random/int?min=1&max=6', headers: bearer(key) });
        assert.equal(res.statusCode, 500);
        assert.equal(res.headers['x-ratelimit-remaining'], '4', 'uncounted');
        assert.equal((await me(key)).requests_today, 1);
        assert.equal(await records(key), 1);
      } finally {
        await sql`drop trigger refuse_records${sql.raw(target.dialect === 'postgres' ? ' on operations' : '')}`.execute(
          t.store.db,
        );
      }
    });

    test('a request refused for its parameters is still counted, without a record', async () => {
      const key = await t.key({ dailyLimit: 5 });
      const res = await t.app.inject({ url: '/api/v1/random/int?min=6&max=1', headers: bearer(key) });
      assert.equal(res.statusCode, 400);
      assert.equal(res.headers['x-ratelimit-remaining'], '4');
      assert.equal((await me(key)).requests_today, 1);
      assert.equal(await records(key), 0);
    });
  });
}
