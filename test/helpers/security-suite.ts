import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestApp } from './app.ts';

export interface ProtectedRoute {
  method: 'GET' | 'POST';
  url: string;
  payload?: unknown;
}

/**
 * The checks every protected route must pass, shared so a new route cannot forget one:
 * no header, malformed header, unknown key, revoked key, free plan and pro plan.
 * `route` may depend on the caller's key (e.g. a giveaway that key's account owns).
 */
export function securitySuite(
  ctx: () => TestApp,
  route: (key: string) => Promise<ProtectedRoute> | ProtectedRoute,
) {
  const send = async (key: string, headers: Record<string, string>) => {
    const r = await route(key);
    return ctx().app.inject({
      method: r.method,
      url: r.url,
      headers,
      ...(r.payload === undefined ? {} : { payload: r.payload as object }),
    });
  };
  const expectUnauthorized = (res: Awaited<ReturnType<typeof send>>) => {
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.headers['www-authenticate'], 'Bearer');
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.json().code, 'unauthorized');
    assert.ok(res.headers['x-request-id']);
  };

  test('security: no Authorization header → 401', async () => {
    expectUnauthorized(await send(await ctx().key(), {}));
  });
  test('security: malformed Authorization header → 401', async () => {
    const key = await ctx().key();
    for (const value of [key, `Basic ${key}`, 'Bearer', `Bearer ${key} extra`, 'Bearer  ']) {
      expectUnauthorized(await send(key, { authorization: value }));
    }
  });
  test('security: unknown key → 401', async () => {
    const key = await ctx().key();
    const forged = `${key.slice(0, -4)}AAAA` === key ? `${key.slice(0, -4)}BBBB` : `${key.slice(0, -4)}AAAA`;
    expectUnauthorized(await send(key, { authorization: `Bearer ${forged}` }));
    expectUnauthorized(
      await send(key, { authorization: 'Bearer tk_unknownunknownunknownunknownunknownunknown1' }),
    );
  });
  test('security: revoked key → 401', async () => {
    const key = await ctx().key();
    const r = await route(key);
    assert.ok(await ctx().services.accounts.revokeKey(key.slice(0, 12)));
    const res = await ctx().app.inject({
      method: r.method,
      url: r.url,
      headers: { authorization: `Bearer ${key}` },
      ...(r.payload === undefined ? {} : { payload: r.payload as object }),
    });
    expectUnauthorized(res);
  });
  for (const plan of ['free', 'pro'] as const) {
    test(`security: ${plan} plan → 403 plan_not_supported`, async () => {
      const key = await ctx().key();
      const r = await route(key);
      const other = await ctx().key({ plan });
      const res = await ctx().app.inject({
        method: r.method,
        url: r.url,
        headers: { authorization: `Bearer ${other}` },
        ...(r.payload === undefined ? {} : { payload: r.payload as object }),
      });
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(res.json().code, 'plan_not_supported');
    });
  }
}
