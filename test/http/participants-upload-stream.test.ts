import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { API, createGiveaway, expectProblem } from '../giveaways/giveaway-helpers.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

// A temporary folder of this file's own (the server spools into os.tmpdir(), which reads TMPDIR):
// another upload on the machine at the same time would otherwise look like a spool left behind.
process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'tyche-upload-test-'));
const spools = () => readdirSync(tmpdir()).filter((name) => name.startsWith('tyche-upload-'));

/** A CSV body sent in pieces as it is made, so the server can only have it as a stream. */
function csvStream(ids: readonly number[], per = 1000): ReadableStream<Uint8Array> {
  let at = 0;
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      if (at === 0) controller.enqueue(encoder.encode('telegram_id,username\r\n'));
      const piece = ids.slice(at, at + per).map((id) => `${id},user_${id}\r\n`);
      at += per;
      if (piece.length > 0) controller.enqueue(encoder.encode(piece.join('')));
      if (at >= ids.length) controller.close();
    },
  });
}

for (const target of await storeTargets()) {
  describe(`participants upload over the network on ${target.dialect}`, { skip: target.skip }, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(() => t?.close());

    const send = (key: string, id: string, body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${base}${API}/${id}/participants`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'text/csv', ...headers },
        body,
        duplex: 'half',
      } as RequestInit);
    /** Read from the store, so that no request is counted against a key's daily limit. */
    const count = async (id: string) =>
      Number(
        (
          await t.store.db
            .selectFrom('giveaways')
            .select('participants_count')
            .where('public_id', '=', id)
            .executeTakeFirstOrThrow()
        ).participants_count,
      );

    test('a streamed upload of 35 000 is stored in batches in one go; repeats across batches are found', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const ids = Array.from({ length: 35_000 }, (_, i) => 1_000_000 + i);
      // Line 30 002 repeats line 2 (a batch of 10 000 earlier), line 35 001 repeats line 30 001.
      ids[30_000] = ids[0];
      ids[34_999] = ids[29_999];
      const res = await send(key, id, csvStream(ids));
      assert.equal(res.status, 200, await res.clone().text());
      assert.deepEqual(await res.json(), {
        added: 34_998,
        duplicates: 2,
        participants_count: 34_998,
        duplicate_lines: [30_002, 35_001],
      });
      const last = await t.services.giveaways.join(id, { telegram_id: ids[34_998] });
      assert.deepEqual([last.status, last.entryNumber], ['duplicate', 34_998]);
      assert.deepEqual(spools(), [], 'the spooled body is removed once answered');
    });

    test('a bad last line of a long upload stores nothing at all', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const ids = Array.from({ length: 25_000 }, (_, i) => 5_000_000 + i);
      ids[24_999] = -1;
      const res = await send(key, id, csvStream(ids));
      assert.equal(res.status, 400);
      const problem = (await res.json()) as { code: string; errors: { parameter: string }[] };
      assert.equal(problem.code, 'invalid_parameter');
      assert.deepEqual(
        problem.errors.map((e) => e.parameter),
        ['line 25001: telegram_id'],
      );
      assert.equal(await count(id), 0);
      assert.deepEqual(spools(), []);
    });

    test('a million is the most one upload may add: one more and nothing is stored', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const ids = Array.from({ length: 1_000_001 }, (_, i) => i + 1);
      const res = await send(key, id, csvStream(ids, 50_000));
      assert.equal(res.status, 400);
      const problem = (await res.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'invalid_parameter');
      assert.match(problem.detail, /1,000,001 participants; at most 1,000,000/);
      assert.equal(await count(id), 0);
    });

    test('a body declared over the limit is refused before it is read: 413', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${base}${API}/${id}/participants`, {
          method: 'POST',
          headers: { ...bearer(key), 'content-type': 'text/csv', 'content-length': String(300 * 2 ** 20) },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.write('telegram_id\n1\n');
      });
      assert.equal(status, 413);
      assert.equal(JSON.parse(body).code, 'payload_too_large');
      assert.equal(await count(id), 0);
    });

    test('an upload is one request for the daily limit; a spent key is refused before the body', async () => {
      const key = await t.key({ dailyLimit: 3 });
      const id = await createGiveaway(t, key);
      const before = Number(
        (await send(key, id, 'telegram_id\n1\n2\n3\n')).headers.get('x-ratelimit-remaining'),
      );
      assert.equal(before, 1);
      await send(key, id, 'telegram_id\n4\n');
      const spent = await send(key, id, 'telegram_id\n5\n');
      assert.equal(spent.status, 429);
      assert.equal(await count(id), 4);
    });

    test('Idempotency-Key: the same upload is replayed, another upload under the key is refused', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const headers = { 'idempotency-key': 'upload-1' };
      const first = await send(key, id, 'telegram_id\n1\n2\n', headers);
      assert.equal(first.status, 200);
      const again = await send(key, id, 'telegram_id\n1\n2\n', headers);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await again.json(), await first.json());
      const other = await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/participants`,
        headers: { ...bearer(key), ...headers, 'content-type': 'text/csv' },
        payload: 'telegram_id\n1\n3\n',
      });
      expectProblem(other, 422, 'idempotency_key_reused');
      assert.equal(await count(id), 2);
    });
  });
}
