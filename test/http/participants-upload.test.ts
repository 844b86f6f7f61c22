import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, createGiveaway, draw, expectProblem, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

const CSV = 'text/csv';
const NDJSON = 'application/x-ndjson';

for (const target of await storeTargets()) {
  describe(`participants upload (CSV, NDJSON) on ${target.dialect}`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
    });
    after(() => t?.close());

    const upload = (key: string, id: string, type: string, body: string, headers = {}) =>
      t.app.inject({
        method: 'POST',
        url: `${API}/${id}/participants`,
        headers: { ...bearer(key), 'content-type': type, ...headers },
        payload: body,
      });
    const rows = async (key: string, id: string) =>
      (await t.app.inject({ url: `${API}/${id}/participants.csv`, headers: bearer(key) })).body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',').slice(0, 3).join(','));
    const count = async (key: string, id: string) =>
      (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json().participants_count;

    test('CSV: header in any order, RFC 4180 quoting, BOM and CRLF, empty cell = none, @ dropped', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const body =
        '\ufefffirst_name,telegram_id,username\r\n' +
        'Alice,10,@alice\r\n' +
        '"Bob, ""B""",11,bob\r\n' +
        '\r\n' +
        ',12,\r\n' +
        'Zoë 😀,9007199254740991,"@@z"';
      const res = await upload(key, id, `${CSV}; charset=utf-8`, body);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { added: 4, duplicates: 0, participants_count: 4, duplicate_lines: [] });
      assert.deepEqual(await rows(key, id), [
        '10,alice,Alice',
        '11,bob,"Bob',
        '12,,',
        "9007199254740991,'@z,Zoë 😀",
      ]);
    });

    test('NDJSON: one object per line, blank lines skipped, the JSON body rules item by item', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const body =
        '{"telegram_id": 20, "username": "@u20", "first_name": "Twenty"}\n\n  \n{"telegram_id": 21}\n';
      const res = await upload(key, id, NDJSON, body);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { added: 2, duplicates: 0, participants_count: 2, duplicate_lines: [] });
      assert.deepEqual(await rows(key, id), ['20,u20,Twenty', '21,,']);
    });

    test('duplicates, already joined or repeated, are counted and named by line; numbering goes on', async () => {
      const key = await t.key();
      const id = await readyGiveaway(t, key, 3); // ids 1, 2, 3 joined through the JSON body
      const res = await upload(key, id, CSV, 'telegram_id\n4\n2\n5\n4\n6\n');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        added: 3,
        duplicates: 2,
        participants_count: 6,
        duplicate_lines: [3, 5],
      });
      const again = await upload(key, id, NDJSON, '{"telegram_id": 7}\n{"telegram_id": 1}\n');
      assert.deepEqual(again.json(), {
        added: 1,
        duplicates: 1,
        participants_count: 7,
        duplicate_lines: [2],
      });
      const receipt = await t.app.inject({ url: `${API}/${id}/entrants/6/receipt`, headers: bearer(key) });
      assert.equal(receipt.statusCode, 200, receipt.body);
      assert.match(receipt.json().salt, /^[0-9a-f]{32}$/);
      const entered = await t.services.giveaways.join(id, { telegram_id: 6 });
      assert.equal(entered.entryNumber, 6, 'entry numbers follow the upload order without gaps');
    });

    test('one line at fault and nothing is stored: 400 with every bad line counted, named by line', async () => {
      const key = await t.key();
      const id = await readyGiveaway(t, key, 2);
      const body = `telegram_id,username\n100,a\n0,b\n101,${'u'.repeat(257)}\n102,"x\ny"\n103,ok,extra\n`;
      const res = await upload(key, id, CSV, body);
      expectProblem(res, 400, 'invalid_parameter');
      assert.match(res.json().detail, /^4 lines are not valid, so nothing was added/);
      assert.deepEqual(
        res.json().errors.map((e: { parameter: string }) => e.parameter),
        ['line 3: telegram_id', 'line 4: username', 'line 5: username', 'line 7'],
      );
      assert.equal(await count(key, id), 2);
      assert.deepEqual(await rows(key, id), ['1,user1,', '2,user2,']);
    });

    test('a value that is not its type anywhere makes it a 422 invalid_type, like the JSON body', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const csv = await upload(key, id, CSV, 'telegram_id\n1\n1.5\n-3\n9007199254740992\nabc\n');
      expectProblem(csv, 422, 'invalid_type');
      assert.deepEqual(
        csv.json().errors.map((e: { parameter: string }) => e.parameter),
        ['line 3: telegram_id', 'line 4: telegram_id', 'line 5: telegram_id', 'line 6: telegram_id'],
      );
      const lines = '{"telegram_id": 1e3}\n{"telegram_id": "5"}\n{"telegram_id": 6, "username": 7}\n';
      expectProblem(await upload(key, id, NDJSON, lines), 422, 'invalid_type');
      const notJson = await upload(
        key,
        id,
        NDJSON,
        '{"telegram_id": 1}\nnope\n[1]\n{"telegram_id": 2, "x": 1}\n',
      );
      expectProblem(notJson, 400, 'invalid_json');
      assert.equal(notJson.json().errors.length, 3);
      expectProblem(await upload(key, id, NDJSON, '{"username": "x"}\n'), 400, 'missing_parameter');
      assert.equal(await count(key, id), 0);
    });

    test('the report lists the first 100 problems and counts them all', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const body = `telegram_id\n${Array.from({ length: 250 }, (_, i) => (i % 2 === 0 ? -i - 1 : i + 1)).join('\n')}`;
      const res = await upload(key, id, CSV, body);
      expectProblem(res, 400, 'invalid_parameter');
      assert.equal(res.json().errors.length, 100);
      assert.equal(res.json().errors[0].parameter, 'line 2: telegram_id');
      assert.match(
        res.json().detail,
        /^125 lines are not valid, so nothing was added; the first 100 problems are listed$/,
      );
    });

    test('header and framing: unknown, repeated or missing columns, a quote never closed, too long', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const cases: [string, number, string, string][] = [
        ['telegram_id,joined_at\n1,x\n', 400, 'invalid_parameter', 'line 1: "joined_at"'],
        ['telegram_id,username,username\n1,a,b\n', 400, 'invalid_parameter', 'line 1: username'],
        ['username\nalice\n', 400, 'missing_parameter', 'line 1: telegram_id'],
        ['telegram_id,username\n1,"open\n2,b\n', 400, 'invalid_parameter', 'line 2'],
        ['telegram_id,username\n1,a"b\n', 400, 'invalid_parameter', 'line 2'],
        [`telegram_id,username\n1,${'x'.repeat(20_000)}\n2,b\n`, 400, 'invalid_parameter', 'line 2'],
      ];
      for (const [body, status, code, parameter] of cases) {
        const res = await upload(key, id, CSV, body);
        expectProblem(res, status, code);
        assert.deepEqual(
          res.json().errors.map((e: { parameter: string }) => e.parameter),
          [parameter],
          body.slice(0, 40),
        );
      }
      for (const body of ['', 'telegram_id\n', '\n\n', 'telegram_id,username\r\n\r\n']) {
        const res = await upload(key, id, CSV, body);
        expectProblem(res, 400, 'invalid_parameter');
        assert.equal(res.json().detail, 'The upload names no participant');
      }
      expectProblem(await upload(key, id, NDJSON, ''), 400, 'invalid_parameter');
      assert.equal(await count(key, id), 0);
    });

    test('a request that sends no body and no type → 400 missing_parameter, as an empty JSON object does', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/participants`,
        headers: bearer(key),
      });
      expectProblem(res, 400, 'missing_parameter');
      assert.deepEqual(res.json().errors, [{ parameter: 'participants', message: 'is required' }]);
      assert.equal(await count(key, id), 0);
    });

    test('bytes that are not UTF-8 → 400; other charsets, compressed bodies, other types → 415', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const latin1 = await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/participants`,
        headers: { ...bearer(key), 'content-type': CSV },
        payload: Buffer.from('telegram_id,first_name\n1,Zo\xeb\n', 'latin1'),
      });
      expectProblem(latin1, 400, 'invalid_parameter');
      assert.match(latin1.json().detail, /not valid UTF-8/);
      expectProblem(
        await upload(key, id, `${CSV}; charset=iso-8859-1`, 'telegram_id\n1\n'),
        415,
        'unsupported_media_type',
      );
      const gzip = await upload(key, id, NDJSON, '{"telegram_id": 1}\n', { 'content-encoding': 'gzip' });
      expectProblem(gzip, 415, 'unsupported_media_type');
      const plain = await upload(key, id, 'text/plain', 'telegram_id\n1\n');
      expectProblem(plain, 415, 'unsupported_media_type');
      assert.match(plain.json().detail, /application\/json, text\/csv, application\/x-ndjson/);
      assert.equal(await count(key, id), 0);
    });

    test('states and ownership as for the JSON body: 409 once drawn, 403 and 404 before reading', async () => {
      const key = await t.key();
      const id = await readyGiveaway(t, key, 2);
      assert.equal((await draw(t, key, id)).statusCode, 200);
      expectProblem(await upload(key, id, CSV, 'telegram_id\n50\n'), 409, 'giveaway_completed');
      const other = await t.key();
      expectProblem(await upload(other, id, CSV, 'telegram_id\n50\n'), 403, 'forbidden');
      expectProblem(await upload(other, 'AAAAAAAAAAAA', NDJSON, '{"telegram_id": 50}\n'), 404, 'not_found');
      const free = await t.key({ plan: 'free' });
      expectProblem(await upload(free, id, CSV, 'telegram_id\n50\n'), 403, 'plan_not_supported');
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/participants`,
        headers: { 'content-type': CSV },
        payload: 'telegram_id\n50\n',
      });
      expectProblem(anonymous, 401, 'unauthorized');
    });

    test('an upload at fault is answered with its faults, whatever the state or owner of the giveaway', async () => {
      const key = await t.key();
      const id = await readyGiveaway(t, key, 2);
      assert.equal((await draw(t, key, id)).statusCode, 200);
      const bad = 'telegram_id\n50\n0\n';
      for (const [who, giveaway] of [
        [key, id],
        [await t.key(), id],
        [key, 'AAAAAAAAAAAA'],
      ]) {
        const res = await upload(who, giveaway, CSV, bad);
        expectProblem(res, 400, 'invalid_parameter');
        assert.deepEqual(
          res.json().errors.map((e: { parameter: string }) => e.parameter),
          ['line 3: telegram_id'],
        );
      }
      // A well-formed upload gets the giveaway's answer.
      expectProblem(await upload(key, id, CSV, 'telegram_id\n50\n'), 409, 'giveaway_completed');
    });
  });
}
