import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { toAppError } from '../../src/http/problem.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

const postgres = (await storeTargets()).find((target) => target.dialect === 'postgres')!;

test('errors of an unreachable store map to 503 service_unavailable with Retry-After, others stay 500', () => {
  for (const error of [
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    Object.assign(new Error('connection failure'), { code: '08006' }),
    Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    new Error('Connection terminated unexpectedly'),
    Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
  ]) {
    const mapped = toAppError(error);
    assert.equal(mapped.code, 'service_unavailable', error.message);
    assert.equal(mapped.retryAfterSeconds, 2);
  }
  assert.equal(toAppError(new TypeError('x is undefined')).code, 'internal_error');
  assert.equal(toAppError(Object.assign(new Error('dup'), { code: '23505' })).code, 'internal_error');
});

describe('PostgreSQL terminating the service connections under load', { skip: postgres.skip }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ dialect: 'postgres' });
  });
  after(() => t.close());

  test('requests answer 200 or 503, never 500, and the service recovers by itself', async (ctx) => {
    const key = await t.key();
    const admin = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await admin.connect();
    const statuses = new Map<number, number>();
    try {
      const load = Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 40; i++) {
          const res = await t.app.inject({ url: '/api/v1/random/int?min=1&max=6', headers: bearer(key) });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode === 503) {
            assert.equal(res.json().code, 'service_unavailable');
            assert.equal(res.headers['retry-after'], '2');
          }
        }
      });
      const kills = (async () => {
        for (let i = 0; i < 5; i++) {
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          );
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await Promise.all([...load, kills]);
    } finally {
      await admin.end();
    }
    ctx.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
    assert.deepEqual(
      [...statuses.keys()].filter((s) => s !== 200 && s !== 503),
      [],
      JSON.stringify([...statuses]),
    );
    const after = await t.app.inject({ url: '/api/v1/random/int?min=1&max=6', headers: bearer(key) });
    assert.equal(after.statusCode, 200);
    const ready = await t.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200);
  });
});
