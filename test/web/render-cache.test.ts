import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesEtag } from '../../src/edge/etag.ts';
import { createRenderCache } from '../../src/web/render-cache.ts';

test('concurrent requests share one rendering; the least recently used entry goes first; failures are not kept', async () => {
  const cache = createRenderCache(2);
  let renders = 0;
  const render = (text: string) => async () => {
    renders++;
    return text;
  };
  const burst = await Promise.all(Array.from({ length: 8 }, () => cache.get('a', render('A'))));
  assert.equal(renders, 1);
  assert.equal(new Set(burst.map((r) => r.etag)).size, 1);
  assert.equal(burst[0].body.toString(), 'A');
  await cache.get('b', render('B'));
  await cache.get('a', render('A')); // a is now the most recent
  await cache.get('c', render('C')); // evicts b
  assert.equal(renders, 3);
  await cache.get('a', render('A'));
  assert.equal(renders, 3);
  await cache.get('b', render('B'));
  assert.equal(renders, 4);

  await assert.rejects(
    cache.get('x', async () => {
      throw new Error('renderer failed');
    }),
  );
  assert.equal((await cache.get('x', render('X'))).body.toString(), 'X');
});

test('If-None-Match matches strong and weak forms of the tag, lists and *', () => {
  assert.equal(matchesEtag('"abc"', '"abc"'), true);
  assert.equal(matchesEtag('W/"abc"', '"abc"'), true);
  assert.equal(matchesEtag('"x", "abc"', '"abc"'), true);
  assert.equal(matchesEtag('*', '"abc"'), true);
  assert.equal(matchesEtag('"abcd"', '"abc"'), false);
  assert.equal(matchesEtag(undefined, '"abc"'), false);
});
