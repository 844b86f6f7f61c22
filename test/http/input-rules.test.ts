import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import type { Services } from '../../src/services.ts';
import { type BotHarness, startBotHarness } from '../bot/bot-harness.ts';
import { telegramUser } from '../bot/telegram-updates.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

const API = '/api/v1/giveaways';

/** Integer tokens JSON.parse reads as numbers but the contract does not take as integers. */
const NOT_PLAIN = [
  '1e400',
  '-1e400',
  '1.0',
  '1e0',
  '1E0',
  '1e15',
  '1.5e1',
  '2.5',
  '-0.0',
  '9007199254740992',
  '12345678901234567890',
];

/** C0 (tab and newline included), DEL and C1, at both ends of each range. */
const CONTROL = ['\u0000', '\u0001', '\t', '\n', '\r', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f'];

const IntegersBodySchema = Type.Object(
  {
    n: Type.Optional(Type.Integer()),
    min: Type.Optional(Type.Integer()),
    max: Type.Optional(Type.Integer()),
    nested: Type.Optional(Type.Array(Type.Object({ count: Type.Integer() }))),
    maybe: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    free: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

for (const target of await storeTargets()) {
  describe(`input rules on ${target.dialect}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await startTestApp({
        dialect: target.dialect,
        routes: (app) => app.post('/test/integers', { schema: { body: IntegersBodySchema } }, (r) => r.body),
      });
      key = await t.key({ dailyLimit: 100_000 });
    });
    after(() => t.close());

    const postRaw = (url: string, text: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: text,
      });
    const post = (url: string, body: unknown) => postRaw(url, JSON.stringify(body));
    const expectProblem = (
      res: Awaited<ReturnType<typeof postRaw>>,
      status: number,
      code: string,
      parameter: string,
    ) => {
      assert.equal(res.statusCode, status, res.body);
      const body = res.json();
      assert.equal(body.code, code, res.body);
      assert.ok(
        body.errors.some((e: { parameter: string }) => e.parameter === parameter),
        `${parameter} named in ${res.body}`,
      );
    };
    const createGiveaway = async () => {
      const res = await post(API, { title: 'Input rules', winners_count: 1 });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().public_id as string;
    };
    const storedParticipants = async (publicId: string) =>
      t.store.db
        .selectFrom('participants')
        .innerJoin('giveaways', 'giveaways.id', 'participants.giveaway_id')
        .select(['participants.telegram_id', 'participants.username', 'participants.first_name'])
        .where('giveaways.public_id', '=', publicId)
        .orderBy('participants.entry_number')
        .execute();

    describe('integers in JSON bodies are plain decimal safe integers, judged on the raw token', () => {
      test('telegram_id: 422 naming the entrant, and nothing is stored', async () => {
        const id = await createGiveaway();
        for (const token of NOT_PLAIN) {
          const res = await postRaw(
            `${API}/${id}/participants`,
            `{"participants":[{"telegram_id":7},{"telegram_id":${token},"username":"u"}]}`,
          );
          expectProblem(res, 422, 'invalid_type', 'participants[1].telegram_id');
        }
        assert.deepEqual(await storedParticipants(id), []);
        const giveaway = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
        assert.equal(giveaway.participants_count, 0);
      });

      test('winners_count of a new giveaway and count of /random/choice', async () => {
        for (const token of NOT_PLAIN) {
          expectProblem(
            await postRaw(API, `{"title":"x","winners_count":${token}}`),
            422,
            'invalid_type',
            'winners_count',
          );
          expectProblem(
            await postRaw('/api/v1/random/choice', `{"items":[1,2,3],"count":${token}}`),
            422,
            'invalid_type',
            'count',
          );
        }
      });

      test('any integer field, nested in arrays or in a union with null', async () => {
        for (const token of NOT_PLAIN) {
          for (const [text, parameter] of [
            [`{"n":${token}}`, 'n'],
            [`{"min":${token},"max":10}`, 'min'],
            [`{"max":${token}}`, 'max'],
            [`{"nested":[{"count":1},{"count":${token}}]}`, 'nested[1].count'],
            [`{"maybe":${token}}`, 'maybe'],
          ]) {
            expectProblem(await postRaw('/test/integers', text), 422, 'invalid_type', parameter);
          }
        }
      });

      test('plain decimal integers pass, up to ±(2^53 − 1); free-form values stay as given', async () => {
        const res = await postRaw(
          '/test/integers',
          '{"n":-42,"min":-9007199254740991,"max":9007199254740991,"nested":[{"count":0}],"maybe":null,' +
            '"free":[1.5,1e3,2.0,-0.5e-1,1e400,"1e3",{"deep":1.0}]}',
        );
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), {
          n: -42,
          min: -Number.MAX_SAFE_INTEGER,
          max: Number.MAX_SAFE_INTEGER,
          nested: [{ count: 0 }],
          maybe: null,
          // JSON.stringify writes Infinity as null, as it always has for free-form values.
          free: [1.5, 1000, 2, -0.05, null, '1e3', { deep: 1 }],
        });

        const id = await createGiveaway();
        const added = await postRaw(
          `${API}/${id}/participants`,
          `{"participants":[{"telegram_id":9007199254740991,"first_name":"x1.5e3"},{"telegram_id":1}]}`,
        );
        assert.equal(added.statusCode, 200, added.body);
        assert.deepEqual(
          (await storedParticipants(id)).map((row) => Number(row.telegram_id)),
          [Number.MAX_SAFE_INTEGER, 1],
        );
      });

      test('items of /random/choice and /random/shuffle are returned as given, fractions included', async () => {
        const items = '[1.5,1e3,2.0,-7,"x",{"a":1e2},[0.25]]';
        const expected = [1.5, 1000, 2, -7, 'x', { a: 100 }, [0.25]].map((v) => JSON.stringify(v)).sort();
        const choice = await postRaw('/api/v1/random/choice', `{"items":${items},"count":7,"unique":true}`);
        assert.equal(choice.statusCode, 200, choice.body);
        assert.deepEqual(
          choice
            .json()
            .chosen.map((v: unknown) => JSON.stringify(v))
            .sort(),
          expected,
        );
        const shuffle = await postRaw('/api/v1/random/shuffle', `{"items":${items}}`);
        assert.equal(shuffle.statusCode, 200, shuffle.body);
        assert.deepEqual(
          shuffle
            .json()
            .shuffled.map((v: unknown) => JSON.stringify(v))
            .sort(),
          expected,
        );
      });

      test('a type error wins over a range or text error in the same body', async () => {
        expectProblem(
          await postRaw(API, '{"title":"bad\\u0000title","winners_count":1.0}'),
          422,
          'invalid_type',
          'winners_count',
        );
      });
    });

    describe('text fields refuse control characters', () => {
      test('title: 400 naming it, for C0 (tab and newline too), DEL and C1', async () => {
        for (const c of CONTROL) {
          const res = await post(API, { title: `Sum${c}mer`, winners_count: 1 });
          expectProblem(res, 400, 'invalid_parameter', 'title');
          assert.match(res.json().detail, /control characters/);
        }
        for (const title of ['\u0000Summer', 'Summer\u0085', ' \u007f ']) {
          expectProblem(await post(API, { title, winners_count: 1 }), 400, 'invalid_parameter', 'title');
        }
      });

      test('title: whitespace that trimming removes is not judged', async () => {
        const res = await post(API, { title: '\t Summer \r\n', winners_count: 1 });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().title, 'Summer');
      });

      test('description: tab and newline are allowed, every other control character is refused', async () => {
        const description = 'Rules:\n\t1. Follow\n\t2. Share';
        const ok = await post(API, { title: 'Multi-line', winners_count: 1, description });
        assert.equal(ok.statusCode, 201, ok.body);
        assert.equal(ok.json().description, description);
        const stored = await t.app.inject({ url: `${API}/${ok.json().public_id}`, headers: bearer(key) });
        assert.equal(stored.json().description, description);
        for (const c of CONTROL.filter((c) => c !== '\t' && c !== '\n')) {
          const res = await post(API, { title: 'x', winners_count: 1, description: `a${c}b` });
          expectProblem(res, 400, 'invalid_parameter', 'description');
        }
      });

      test('other characters are text: no-break space, line separator, emoji, CJK', async () => {
        const title = 'A\u00a0B\u2028C 😀 抽奖 \u00ff';
        const res = await post(API, { title, winners_count: 1 });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().title, title);
      });

      test('username and first_name of participants: 400 naming the entrant, nothing stored', async () => {
        const id = await createGiveaway();
        for (const c of CONTROL) {
          for (const field of ['username', 'first_name']) {
            const res = await post(`${API}/${id}/participants`, {
              participants: [{ telegram_id: 1 }, { telegram_id: 2, [field]: `na${c}me` }],
            });
            expectProblem(res, 400, 'invalid_parameter', `participants[1].${field}`);
          }
        }
        assert.deepEqual(await storedParticipants(id), []);
      });
    });
  });

  describe(`bot joins on ${target.dialect}: control characters are dropped from Telegram names`, {
    skip: target.skip,
  }, () => {
    let h: BotHarness<Services['giveaways']>;
    let accountId: string;
    before(async () => {
      h = await startBotHarness({ dialect: target.dialect, makeGiveaways: (services) => services.giveaways });
      const { key } = await h.services.accounts.createKey({ plan: 'business' });
      accountId = (await h.services.accounts.authenticate(`Bearer ${key}`)).accountId;
    });
    after(() => h.close());

    test('the entrant joins with the name cleaned; a name of control characters only is none', async () => {
      const { public_id: id } = await h.services.giveaways.create(accountId, {
        title: 'Bot names',
        winners_count: 1,
      });
      const ann = telegramUser({ first_name: 'An\u0000n\u0085a\u0007\u007f' });
      const bob = telegramUser({ first_name: '\u0000\u001b' });
      assert.match((await h.say(ann, `/start g_${id}`)).params.text, /entry number is 1/);
      assert.match((await h.press(bob, `join:${id}`)).params.text, /entry #2|entry number is 2/);
      const rows = await h.store.db
        .selectFrom('participants')
        .innerJoin('giveaways', 'giveaways.id', 'participants.giveaway_id')
        .select(['participants.telegram_id', 'participants.username', 'participants.first_name'])
        .where('giveaways.public_id', '=', id)
        .orderBy('participants.entry_number')
        .execute();
      assert.deepEqual(
        rows.map((r) => [Number(r.telegram_id), r.username, r.first_name]),
        [
          [ann.id, ann.username, 'Anna'],
          [bob.id, bob.username, null],
        ],
      );
    });
  });
}
