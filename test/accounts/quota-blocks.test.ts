import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { createAccountRepository } from '../../src/accounts/account.repository.ts';
import { createQuotaService, type QuotaService } from '../../src/accounts/quota.service.ts';
import { DailyLimitExceeded } from '../../src/accounts/quota-ticket.ts';
import { createUsageRepository } from '../../src/accounts/usage.repository.ts';
import { createUsageLeaseRepository, offer } from '../../src/accounts/usage-lease.repository.ts';
import {
  createOperationRepository,
  type OperationRepository,
} from '../../src/randomness/operation.repository.ts';
import { newBaseId } from '../../src/randomness/operation-ids.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

const DAY = '2026-11-23';

test('a block is what waits near the limit, and a share of what remains far from it', () => {
  assert.equal(offer(1000, 1, 64), 50, 'at most 1/20 of what remains');
  assert.equal(offer(1000, 1, 16), 16, 'what this process spends quickly');
  assert.equal(offer(15, 1, 64), 1, 'near the limit: only the request that waits');
  assert.equal(offer(15, 4, 64), 4, 'or the requests that wait');
  assert.equal(offer(5, 9, 1), 5, 'never more than remains');
  assert.ok(offer(0, 1, 1) <= 0 && offer(-3, 1, 1) <= 0, 'nothing once spent');
});

/** A server process as the quota sees it: a store handle of its own, its blocks and its records. */
interface Process {
  store: Store;
  quota: QuotaService;
  operations: OperationRepository;
  /** Blocks this process took. */
  leases: number;
}

for (const target of await storeTargets()) {
  describe(`daily limit counted in blocks (${target.dialect})`, { skip: target.skip }, () => {
    const clock = createFakeClock(`${DAY}T12:00:00.000Z`);

    async function setUp(processes: number) {
      const opened = await target.open();
      const started: Process[] = [];
      for (let i = 0; i < processes; i++) {
        // SQLite's handle waits for a lock synchronously, so two handles in one test process would
        // stall each other: there the holders share one (as the CLI and a server share the file).
        const store = target.dialect === 'postgres' ? openStore(opened.env) : opened.store;
        const leases = createUsageLeaseRepository(store.db);
        const counted: Process = {
          store,
          quota: createQuotaService({
            usage: createUsageRepository(store.db),
            leases: {
              ...leases,
              lease: (request) => {
                counted.leases++;
                return leases.lease(request);
              },
            },
            clock,
            holder: `process-${i}`,
          }),
          operations: createOperationRepository(store.db, store.batchDb),
          leases: 0,
        };
        started.push(counted);
      }
      const accounts = createAccountRepository(opened.store.db);
      const usage = createUsageRepository(opened.store.db);
      return {
        processes: started,
        async newKey(limit: number) {
          const accountId = randomUUID();
          await accounts.insertAccount({ id: accountId, plan: 'business', telegram_id: null, created_at: 1 });
          const id = randomUUID();
          await accounts.insertKey({
            id,
            account_id: accountId,
            prefix: `tk_${id.slice(0, 9)}`,
            hash: 'ab'.repeat(32),
            label: null,
            daily_limit: limit,
            created_at: 1,
            last_used_at: null,
            revoked_at: null,
          });
          return { id, accountId };
        },
        requestsToday: (keyId: string) => usage.countFor(keyId, DAY),
        async rows(keyId: string) {
          const daily = await opened.store.db
            .selectFrom('usage_daily')
            .select('count')
            .where('key_id', '=', keyId)
            .executeTakeFirst();
          const rows = await opened.store.db
            .selectFrom('usage_leases')
            .select(['holder', 'granted', 'used'])
            .where('key_id', '=', keyId)
            .execute();
          // What each process was granted and holds unspent.
          const leases = rows
            .map((row) => ({ holder: row.holder, granted: row.granted, held: row.granted - row.used }))
            .sort((a, b) => a.holder.localeCompare(b.holder));
          const records = await opened.store.db
            .selectFrom('operations')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('key_id', '=', keyId)
            .executeTakeFirstOrThrow();
          return { count: daily?.count ?? 0, leases, records: Number(records.n) };
        },
        async tearDown() {
          for (const p of started) {
            await p.quota.close();
            if (p.store !== opened.store) await p.store.close();
          }
          await opened.cleanup();
        },
      };
    }

    /** One random request as the HTTP layer makes it: a place first, then the record with its count. */
    async function request(p: Process, key: { id: string; accountId: string }, limit: number) {
      let place: Awaited<ReturnType<QuotaService['reserve']>>;
      try {
        place = await p.quota.reserve(key.id, limit);
      } catch (error) {
        if (error instanceof DailyLimitExceeded) return 'refused';
        throw error;
      }
      const at = clock.now().getTime();
      await p.operations.insertCounted(
        {
          request_id: newBaseId(),
          x_request_id: 'x',
          account_id: key.accountId,
          key_id: key.id,
          endpoint: 'GET /api/v1/random/int',
          source: 'system',
          source_reference: 'system:test',
          source_fetched_at: at,
          created_at: at,
          operation_count: 1,
        },
        place,
      );
      place.spent();
      return 'passed';
    }

    /** `workers` clients per process, each asking until it is refused. */
    async function drain(
      processes: Process[],
      key: { id: string; accountId: string },
      limit: number,
      workers = 8,
    ) {
      let passed = 0;
      const worker = async (p: Process) => {
        while ((await request(p, key, limit)) === 'passed') passed++;
      };
      await Promise.all(processes.flatMap((p) => Array.from({ length: workers }, () => worker(p))));
      return passed;
    }

    test('two processes racing: exactly the limit passes, each request with its record and count', async () => {
      const t = await setUp(2);
      try {
        const key = await t.newKey(60);
        const outcomes = await Promise.all(
          Array.from({ length: 300 }, (_, i) => request(t.processes[i % 2], key, 60)),
        );
        assert.equal(outcomes.filter((o) => o === 'passed').length, 60);
        const key2 = await t.newKey(3000);
        // Long enough for blocks to grow: passes still stop exactly at the limit.
        const before = t.processes[0].leases + t.processes[1].leases;
        assert.equal(await drain(t.processes, key2, 3000), 3000);
        const taken = t.processes[0].leases + t.processes[1].leases - before;
        assert.ok(taken < 3000 / 10, `3000 places in ${taken} blocks`);
        for (const k of [key, key2]) {
          const limit = k === key ? 60 : 3000;
          const rows = await t.rows(k.id);
          assert.equal(rows.count, limit);
          assert.equal(rows.records, limit);
          assert.equal(await t.requestsToday(k.id), limit);
          for (const lease of rows.leases) assert.equal(lease.held, 0, 'every place taken was spent');
        }
      } finally {
        await t.tearDown();
      }
    });

    test('a block nobody draws on goes back, and another process spends it', async () => {
      const t = await setUp(2);
      try {
        const [a, b] = t.processes;
        const key = await t.newKey(200);
        for (let i = 0; i < 20; i++) assert.equal(await request(a, key, 200), 'passed');
        const held = (await t.rows(key.id)).leases[0];
        assert.ok(held.held > 0, `process 0 holds unused places (${JSON.stringify(held)})`);
        const spentByB = await drain([b], key, 200);
        assert.equal(20 + spentByB + held.held, 200, 'refused only while another holds places');
        assert.equal(await t.requestsToday(key.id), 20 + spentByB, 'held places are not requests');
        clock.advance(5000);
        a.quota.returnIdleBlocks();
        await eventually(async () => (await t.rows(key.id)).leases.every((l) => l.held === 0));
        assert.equal(await drain([b], key, 200), held.held);
        assert.equal(await t.requestsToday(key.id), 200);
        assert.equal((await t.rows(key.id)).records, 200);
      } finally {
        await t.tearDown();
      }
    });

    test('a process that dies holding a block: requests today stay exact, its places stay unused', async () => {
      const t = await setUp(2);
      try {
        const [dies, lives] = t.processes;
        const key = await t.newKey(400);
        for (let i = 0; i < 30; i++) await request(dies, key, 400);
        // It never gives its block back (no close, no sweep): a SIGKILL.
        const stranded = (await t.rows(key.id)).leases[0];
        assert.ok(stranded.held <= 400 / 20, 'a block is at most 1/20 of what remained');
        assert.equal(await t.requestsToday(key.id), 30);
        assert.equal(await drain([lives], key, 400), 400 - stranded.granted);
        assert.equal(await t.requestsToday(key.id), 400 - stranded.held);
        assert.equal((await t.rows(key.id)).count, 400, 'the limit itself is never passed');
      } finally {
        await t.tearDown();
      }
    });

    test('stopping gives every unused place back; a counted request given back frees its place', async () => {
      const t = await setUp(1);
      try {
        const [p] = t.processes;
        const key = await t.newKey(1000);
        for (let i = 0; i < 50; i++) await request(p, key, 1000);
        const place = await p.quota.reserve(key.id, 1000);
        const ticket = await place.count();
        assert.equal(ticket.count, 51, 'counted without a record');
        await place.refund();
        assert.equal(await t.requestsToday(key.id), 50, 'a server error gives it back');
        (await p.quota.reserve(key.id, 1000)).release();
        assert.equal(await t.requestsToday(key.id), 50, 'a released place was never counted');
        await p.quota.close();
        const rows = await t.rows(key.id);
        assert.equal(rows.count, 50);
        assert.ok(
          rows.leases.every((l) => l.held === 0),
          'a stopped process holds nothing',
        );
      } finally {
        await t.tearDown();
      }
    });

    test('counts asked for together share one write; each answer gets its own count', async () => {
      const t = await setUp(1);
      try {
        const [p] = t.processes;
        const key = await t.newKey(1000);
        for (let i = 0; i < 10; i++) await request(p, key, 1000);
        const spends: number[] = [];
        const leases = createUsageLeaseRepository(p.store.db);
        const spend = leases.spend;
        // Counts asked for in the same turn wait for one another and go in one write.
        const watched = createQuotaService({
          usage: createUsageRepository(p.store.db),
          leases: {
            ...leases,
            spend: (lease, n, handle) => {
              spends.push(n);
              return spend(lease, n, handle);
            },
          },
          clock,
          holder: 'watched',
        });
        const watchedPlaces = await Promise.all(
          Array.from({ length: 12 }, () => watched.reserve(key.id, 1000)),
        );
        const tickets = await Promise.all(watchedPlaces.map((place) => place.count()));
        assert.deepEqual(spends, [12], 'one write for the twelve asked for together');
        assert.deepEqual(
          tickets.map((ticket) => ticket.count),
          Array.from({ length: 12 }, (_, i) => 11 + i),
          'in the order they asked, each its own count',
        );
        assert.equal(await t.requestsToday(key.id), 22);
        await watched.close();
      } finally {
        await t.tearDown();
      }
    });

    test('a lowered limit takes effect from the next request', async () => {
      const t = await setUp(1);
      try {
        const [p] = t.processes;
        const key = await t.newKey(1000);
        for (let i = 0; i < 40; i++) await request(p, key, 1000);
        assert.equal(await request(p, key, 40), 'refused');
        assert.equal(await t.requestsToday(key.id), 40);
        // The places held under the old limit go back.
        await eventually(async () => (await t.rows(key.id)).count === 40);
      } finally {
        await t.tearDown();
      }
    });
  });
}

/** Waits for a write this test started but does not await (a block given back by the sweep). */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail('the condition never held');
}
