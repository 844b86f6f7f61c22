import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Route schemas compile on first use (src/http/schema-compilers.ts), so a schema that cannot
// compile would pass the start unnoticed: here every one of them is compiled.
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

// Runs first: nothing has compiled the random route's schemas yet.
test('a schema compiled on first use still validates and serializes', async () => {
  const bad = await t.app.inject({
    url: '/api/v1/random/int?min=1&max=1e3',
    headers: { authorization: `Bearer ${await t.key()}` },
  });
  assert.equal(bad.statusCode, 422);
  assert.match(bad.json().detail ?? JSON.stringify(bad.json()), /max|integer/);
  const good = await t.app.inject({
    url: '/api/v1/random/int?min=1&max=6&count=3',
    headers: { authorization: `Bearer ${await t.key()}` },
  });
  assert.equal(good.statusCode, 200);
  const body = good.json();
  assert.equal(body.numbers.length, 3);
  assert.ok(body.numbers.every((n: number) => n >= 1 && n <= 6));
});

test('every route schema compiles, validators and serializers alike', () => {
  const first = t.app.compileAllSchemas();
  assert.ok(first > 100, `expected the app's route schemas still to compile, found ${first}`);
  assert.equal(t.app.compileAllSchemas(), 0, 'a compiled schema is not compiled again');
});
