import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nodeSha256 } from '../../src/cli/verify/verify-context.ts';
import { fromBase64 } from '../../src/proof/hex.ts';
import { readLogEntry } from '../../src/proof/log-entry.ts';
import { resultEntryProblem } from '../../src/proof/result-entry.ts';
import { type SignedBlock, verifySignedResult } from '../../src/proof/signed-result.ts';
import { createOperationRepository } from '../../src/randomness/operation.repository.ts';
import { createResultSigning } from '../../src/randomness/result-signing.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { openStore } from '../../src/store/store.ts';
import { addParticipants, people } from '../giveaways/giveaway-helpers.ts';
import { createVerifiable, seal, startVerifiableApp } from '../giveaways/verifiable-helpers.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

type Result = Record<string, unknown> & { signed: SignedBlock };

const PSEUDONYM = /^o_[0-9A-Za-z]{16}$/;

/** A fresh business account: its key and its id. */
async function account(t: TestApp) {
  const created = await t.services.accounts.createKey({ plan: 'business', dailyLimit: 10_000 });
  return { key: created.key, id: created.account_id };
}

async function signedInt(t: TestApp, key: string): Promise<Result> {
  const res = await t.app.inject({
    url: '/api/v1/random/int?min=1&max=49&count=6&signed=true',
    headers: bearer(key),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const serialsOf = (results: Result[]) => results.map((r) => r.signed.account_serial!).sort((a, b) => a - b);
const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The result's entry as the log serves it, read and matched against the result. */
async function entryOf(t: TestApp, result: Result) {
  const index = result.signed.log_index!;
  const res = await t.app.inject({ url: `/log/entries?start=${index}&end=${index + 1}` });
  const [served] = res.json().entries;
  assert.equal(served.kind, 'result');
  assert.equal(served.id, String(result.signed.serial));
  const read = readLogEntry(fromBase64(served.leaf_data)!, 'result', served.id);
  assert.ok(read.ok, JSON.stringify(read));
  return read.object;
}

for (const target of await storeTargets()) {
  describe(`signed results counted per account (${target.dialect})`, { skip: target.skip }, () => {
    test('each account numbers its own results 1, 2, 3 … under its stable pseudonym', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const [a, b] = [await account(t), await account(t)];
        const pseudonyms = await t.store.db
          .selectFrom('accounts')
          .select(['id', 'owner_pseudonym'])
          .where('id', 'in', [a.id, b.id])
          .execute();
        const pseudonymOf = new Map(pseudonyms.map((row) => [row.id, row.owner_pseudonym]));
        for (const { id } of [a, b]) assert.match(pseudonymOf.get(id) ?? '', PSEUDONYM, 'given at creation');

        const fromA = [await signedInt(t, a.key), await signedInt(t, a.key)];
        const fromB = [await signedInt(t, b.key)];
        fromA.push(await signedInt(t, a.key));
        assert.deepEqual(
          fromA.map((r) => r.signed.account_serial),
          [1, 2, 3],
        );
        assert.deepEqual(
          fromB.map((r) => r.signed.account_serial),
          [1],
        );
        for (const r of fromA) assert.equal(r.signed.account, pseudonymOf.get(a.id));
        assert.equal(fromB[0].signed.account, pseudonymOf.get(b.id));
        assert.ok(fromB[0].signed.serial > fromA[1].signed.serial, 'the deployment serial is shared');
        const keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
        for (const r of [...fromA, ...fromB]) {
          const report = verifySignedResult(r, keys, nodeSha256);
          assert.ok(report.valid, JSON.stringify(report.checks));
          assert.ok(
            report.checks.every((c) => c.warning === undefined),
            'a counted result carries no warning',
          );
        }
      } finally {
        await t.close();
      }
    });

    test('the pseudonym a result names is the owner its account’s seals name', async () => {
      const t = await startVerifiableApp({ dialect: target.dialect });
      try {
        const { key } = await account(t);
        const before = await signedInt(t, key);
        const id = await createVerifiable(t, key);
        await addParticipants(t, key, id, people(3));
        const sealed = await seal(t, key, id);
        assert.equal(sealed.statusCode, 200, sealed.body);
        const after = await signedInt(t, key);
        assert.equal(sealed.json().seal.giveaway.owner, before.signed.account);
        assert.equal(after.signed.account, before.signed.account);
      } finally {
        await t.close();
      }
    });

    test('every signed result is one log entry, kind result, that says what the result implies', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const { key } = await account(t);
        await t.services.signer.current(); // a new deployment's first key is announced in the log first
        const sizeBefore = await t.services.transparency.log.size();
        const results = [await signedInt(t, key)];
        const post = async (url: string, body: object) => {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...bearer(key), 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          assert.equal(res.statusCode, 200, res.body);
          return res.json();
        };
        results.push(await post('/api/v1/random/choice?signed=true', { items: ['a', 'b', 'c'], count: 2 }));
        results.push(await post('/api/v1/random/shuffle?signed=true', { items: ['x', { y: 1 }] }));
        results.push(
          (await t.app.inject({ url: '/api/v1/random/bytes?n=8&signed=true', headers: bearer(key) })).json(),
        );
        assert.equal(await t.services.transparency.log.size(), sizeBefore + results.length, 'one entry each');
        const requests = [];
        for (const result of results) {
          const entry = await entryOf(t, result);
          assert.equal(resultEntryProblem(entry, result), null);
          assert.equal(JSON.stringify(entry).includes('"x"'), false, 'no item reaches the log');
          requests.push(entry.request);
        }
        assert.deepEqual(requests, [
          { endpoint: 'int', min: 1, max: 49, count: 6 },
          { endpoint: 'choice', count: 2, from_total: 3 },
          { endpoint: 'shuffle', count: 2 },
          { endpoint: 'bytes', length: 8, format: 'hex' },
        ]);
        const stored = await t.app.inject({
          url: `/api/v1/operations/${results[0].request_id}`,
          headers: bearer(key),
        });
        assert.deepEqual(stored.json().result, results[0], 'kept with its log index');
      } finally {
        await t.close();
      }
    });

    test('parallel results of one account take 1 … n exactly, and a refused one takes none', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const { key } = await account(t);
        const other = await account(t);
        const results = await Promise.all(
          Array.from({ length: 24 }, (_, i) => signedInt(t, i % 3 === 2 ? other.key : key)),
        );
        const mine = results.filter((r) => r.signed.account !== results[2].signed.account);
        assert.deepEqual(serialsOf(mine), oneToN(16));
        assert.deepEqual(serialsOf(results.filter((r) => !mine.includes(r))), oneToN(8));

        const limited = await t.services.accounts.createKey({ plan: 'business', dailyLimit: 1 });
        assert.equal((await signedInt(t, limited.key)).signed.account_serial, 1);
        const refused = await t.app.inject({
          url: '/api/v1/random/bytes?signed=true',
          headers: bearer(limited.key),
        });
        assert.equal(refused.statusCode, 429);
        const again = await t.services.accounts.createKey({ ownerTelegramId: 7_000_001, dailyLimit: 5 });
        const joined = await t.services.accounts.createKey({ ownerTelegramId: 7_000_001, dailyLimit: 5 });
        assert.equal(again.account_id, joined.account_id);
        const [first, second] = [await signedInt(t, again.key), await signedInt(t, joined.key)];
        assert.deepEqual([first.signed.account_serial, second.signed.account_serial], [1, 2], 'keys share');
        assert.equal(first.signed.account, second.signed.account);
      } finally {
        await t.close();
      }
    });

    test('a result whose log append fails is not kept, and gives its serials back', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const { key, id } = await account(t);
        assert.equal((await signedInt(t, key)).signed.account_serial, 1);
        const failing = createResultSigning({
          db: t.store.db,
          operations: createOperationRepository(t.store.db),
          signer: t.services.signer,
          clock: systemClock,
          log: {
            async appendSigned() {
              throw new Error('the log is unavailable');
            },
          },
        });
        const record = {
          request_id: '019a6d2c-3a0d-7c55-8b41-2f6e0d9c3b77',
          x_request_id: 'failing',
          account_id: id,
          key_id: 'k',
          endpoint: 'GET /api/v1/random/bytes',
          source: 'system',
          source_reference: 'system:test',
          source_fetched_at: Date.now(),
          created_at: Date.now(),
          operation_count: 1,
        };
        await assert.rejects(
          failing.issue(record, undefined, { bytes: 'ab', request_id: record.request_id }),
          /the log is unavailable/,
        );
        const kept = await t.store.db
          .selectFrom('signed_results')
          .select('serial')
          .where('request_id', '=', record.request_id)
          .execute();
        assert.equal(kept.length, 0, 'nothing kept');
        const operations = await t.store.db
          .selectFrom('operations')
          .select('request_id')
          .where('request_id', '=', record.request_id)
          .execute();
        assert.equal(operations.length, 0, 'not even its record');
        assert.equal((await signedInt(t, key)).signed.account_serial, 2, 'no gap');
      } finally {
        await t.close();
      }
    });
  });
}

for (const target of await storeTargets()) {
  if (target.dialect !== 'postgres') continue;
  describe('signed results of one account from two servers on one PostgreSQL', { skip: target.skip }, () => {
    test('account serials stay 1 … n with no gap or repeat across processes', async () => {
      const opened = await target.open();
      const second = openStore(opened.env);
      const a = await startTestApp({ opened });
      const b = await startTestApp({
        opened: { store: second, env: opened.env, cleanup: () => second.close() },
      });
      try {
        const created = await a.services.accounts.createKey({ plan: 'business', dailyLimit: 10_000 });
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) => signedInt(i % 2 === 0 ? a : b, created.key)),
        );
        assert.deepEqual(serialsOf(results), oneToN(40));
        assert.equal(new Set(results.map((r) => r.signed.account)).size, 1);
        const byAccountSerial = [...results].sort(
          (x, y) => x.signed.account_serial! - y.signed.account_serial!,
        );
        for (let i = 1; i < byAccountSerial.length; i++) {
          const [before, after] = [byAccountSerial[i - 1].signed, byAccountSerial[i].signed];
          assert.ok(after.serial > before.serial, 'the account serial follows the deployment serial');
          assert.ok(after.log_index! > before.log_index!, 'and the log order');
        }
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
}
