import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { runTyche } from '../test/helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import { storeTargets } from '../test/helpers/stores.ts';
import { pause } from './crash-helpers.ts';

/**
 * Random requests under SIGKILL: clients draw values until the key's daily limit is spent while
 * a killer restarts the server processes. Every answer a client got is in the operations log
 * (support finds it by its request_id), every counted request has its record and no record
 * lacks its count, and the limit is never passed — a killed process's unused block only leaves
 * places unused.
 */
const LOAD_MS = Number(process.env.CRASH_LOAD_MS ?? 20_000);
const KILLS = Number(process.env.CRASH_KILLS ?? 6);
const CLIENTS = 6;
const LIMIT = 4000;

const targets = await storeTargets();

for (const target of targets) {
  const processes = target.dialect === 'postgres' ? 2 : 1;
  const name = `random requests under SIGKILL (${target.dialect}, ${processes} process${processes > 1 ? 'es' : ''})`;
  describe(name, { skip: target.skip }, () => {
    const servers: (ServerProcess | undefined)[] = [];
    let cleanup: (() => Promise<void>) | undefined;
    after(async () => {
      await Promise.all(servers.map((s) => s?.stop()));
      await cleanup?.().catch(() => {});
    });

    test('every answered request is recorded and counted once; the limit holds', async () => {
      const opened = await target.open();
      cleanup = opened.cleanup;
      const env = { ...opened.env, TYCHE_SOURCES: 'system', LOG_LEVEL: 'warn' };
      // Two keys of one account: one spends its limit under load, the other looks the answers up.
      const keyWith = async (limit: number) => {
        const args = ['keys', 'create', '--json', '--owner', '7000001', '--daily-limit', String(limit)];
        const created = await runTyche(args, env);
        assert.equal(created.code, 0, created.stderr);
        return { authorization: `Bearer ${JSON.parse(created.stdout).key as string}` };
      };
      const headers = await keyWith(LIMIT);
      const support = await keyWith(1_000_000);
      for (let i = 0; i < processes; i++) servers[i] = await startServerProcess(env, { keepLogs: false });
      const live = (n: number) => {
        const up = servers.filter((s): s is ServerProcess => s !== undefined);
        return up.length === 0 ? undefined : up[n % up.length].url;
      };

      const answered = new Map<string, number>();
      let refused = 0;
      let stop = false;
      const client = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const base = live(n + i);
          if (!base) {
            await pause(50);
            continue;
          }
          try {
            const res = await fetch(`${base}/api/v1/random/int?min=1&max=6&count=3`, {
              headers,
              signal: AbortSignal.timeout(20_000),
            });
            const body = await res.json();
            if (res.status === 200) answered.set(body.request_id, body.count);
            else if (res.status === 429) refused++;
            else assert.ok(res.status === 503, `unexpected ${res.status}: ${JSON.stringify(body)}`);
          } catch {
            // Cut by a kill: the outcome is unknown, so it is neither counted nor held to account.
            await pause(20);
          }
        }
      };
      const killer = async () => {
        for (let k = 0; k < KILLS; k++) {
          await pause(LOAD_MS / (KILLS + 1));
          const victim = k % processes;
          const server = servers[victim];
          servers[victim] = undefined;
          await server?.stop('SIGKILL');
          servers[victim] = await startServerProcess(env, { keepLogs: false });
        }
      };
      const load = Array.from({ length: CLIENTS }, (_, n) => client(n));
      await killer();
      stop = true;
      await Promise.all(load);

      // Support finds every answer by its request_id.
      const base = live(0)!;
      for (const id of answered.keys()) {
        const res = await fetch(`${base}/api/v1/operations/${id}`, { headers: support });
        assert.equal(res.status, 200, `acknowledged ${id}: ${res.status} ${await res.text()}`);
      }
      for (const server of servers) await server?.stop();

      const db = opened.store.db;
      const loadKey = await db.selectFrom('api_keys').select('id').where('daily_limit', '=', LIMIT).executeTakeFirstOrThrow();
      const records = await db
        .selectFrom('operations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('key_id', '=', loadKey.id)
        .executeTakeFirstOrThrow();
      const daily = await db
        .selectFrom('usage_daily')
        .select('count')
        .where('key_id', '=', loadKey.id)
        .executeTakeFirstOrThrow();
      const leases = await db
        .selectFrom('usage_leases')
        .select(['holder', 'granted', 'used'])
        .where('key_id', '=', loadKey.id)
        .execute();
      const stranded = leases.reduce((sum, l) => sum + l.granted - l.used, 0);
      const requestsToday = daily.count - stranded;
      assert.ok(answered.size <= requestsToday, `${answered.size} answered, ${requestsToday} counted`);
      assert.equal(Number(records.n), requestsToday, 'one record per counted request, one count per record');
      assert.ok(daily.count <= LIMIT, `the limit holds: ${daily.count} of ${LIMIT} taken`);
      // What the killed processes held is at most a block each: 1/20 of what remained.
      assert.ok(stranded <= KILLS * Math.ceil(LIMIT / 20), `${stranded} places stranded by ${KILLS} kills`);
      process.stdout.write(
        `# ${target.dialect}: ${KILLS} kills, ${answered.size} answered, ${refused} refused, ` +
          `${requestsToday} counted, ${stranded} places stranded in ${leases.length} blocks\n`,
      );
    });
  });
}
