import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer } from '../helpers/app.ts';
import { runTyche } from '../helpers/cli.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

const LIMIT = 1500;
const CLIENTS_PER_PROCESS = 10;

/**
 * Real `tyche serve` processes on one store, each counting in blocks of its own: with a limit
 * large enough for blocks to grow, clients asking until refused get exactly the limit between
 * them, `/me` says so from either process, and a stopped process leaves no block behind.
 */
for (const target of await storeTargets()) {
  const processes = target.dialect === 'postgres' ? 2 : 1;
  describe(`daily limit in blocks, ${processes} server process${processes > 1 ? 'es' : ''} (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    test(`exactly ${LIMIT} pass among clients asking until refused`, async () => {
      const opened = await target.open();
      const env = { ...opened.env, TYCHE_SOURCES: 'system' };
      const created = await runTyche(['keys', 'create', '--json', '--daily-limit', String(LIMIT)], env);
      assert.equal(created.code, 0, created.stderr);
      const key = JSON.parse(created.stdout).key as string;
      const servers = await Promise.all(
        Array.from({ length: processes }, () => startServerProcess(env, { keepLogs: false })),
      );
      try {
        const ids = new Set<string>();
        const counts: number[] = [];
        let refused = 0;
        const client = async (url: string) => {
          for (;;) {
            const res = await fetch(`${url}/api/v1/random/bytes?n=4`, { headers: bearer(key) });
            const body = await res.json();
            if (res.status === 429) {
              refused++;
              return;
            }
            assert.equal(res.status, 200, JSON.stringify(body));
            ids.add(body.request_id);
            counts.push(LIMIT - Number(res.headers.get('x-ratelimit-remaining')));
          }
        };
        await Promise.all(
          servers.flatMap((s) => Array.from({ length: CLIENTS_PER_PROCESS }, () => client(s.url))),
        );
        assert.equal(ids.size, LIMIT);
        assert.equal(refused, processes * CLIENTS_PER_PROCESS);
        assert.ok(
          counts.every((c) => c >= 1 && c <= LIMIT),
          'each answer counts itself within the limit',
        );
        if (processes === 1) {
          // One process numbers its answers exactly: 1, 2, … LIMIT, each once.
          assert.deepEqual(
            counts.sort((a, b) => a - b),
            Array.from({ length: LIMIT }, (_, i) => i + 1),
          );
        }
        for (const server of servers) {
          const me = await fetch(`${server.url}/api/v1/me`, { headers: bearer(key) });
          assert.equal((await me.json()).requests_today, LIMIT);
        }
        const records = await opened.store.db
          .selectFrom('operations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        assert.equal(Number(records.n), LIMIT, 'one record per counted request');
      } finally {
        for (const server of servers) await server.stop();
      }
      try {
        const leases = await opened.store.db.selectFrom('usage_leases').selectAll().execute();
        const held = leases.reduce((sum, l) => sum + l.granted - l.used, 0);
        assert.equal(held, 0, 'a stopped process holds nothing');
      } finally {
        await opened.cleanup();
      }
    });
  });
}
