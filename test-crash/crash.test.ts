import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { systemClock } from '../src/shared/clock.ts';
import { freshState, runTyche } from '../test/helpers/cli.ts';
import { type FakeDrand, startFakeDrand } from '../test/helpers/fake-upstreams.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import { storeTargets } from '../test/helpers/stores.ts';
import { pause, until } from './crash-helpers.ts';
import { startReceiver, type WebhookReceiver } from '../test/helpers/webhook-receiver.ts';

/**
 * Clients create giveaways, add entrants, seal and draw while a killer SIGKILLs server processes
 * at random moments and starts them again. Only what a client saw acknowledged (a 2xx) is held
 * to account: a request cut by a kill may or may not have happened, but never half.
 */
const LOAD_MS = Number(process.env.CRASH_LOAD_MS ?? 20_000);
const KILLS = Number(process.env.CRASH_KILLS ?? 6);
const CLIENTS = 4;

interface Acked {
  /** public_id → telegram ids whose addition was acknowledged. */
  entrants: Map<string, Set<number>>;
  sealed: Set<string>;
  drawn: Set<string>;
}

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Json = any;

/** The server processes on one store: each can be killed and started again on a new port. */
function createCluster(env: Record<string, string>, size: number) {
  const urls: (string | undefined)[] = new Array(size);
  const servers: (ServerProcess | undefined)[] = new Array(size);
  return {
    async start(i: number) {
      const server = await startServerProcess(env, { keepLogs: false });
      servers[i] = server;
      urls[i] = server.url;
    },
    async kill(i: number) {
      const server = servers[i];
      urls[i] = undefined;
      servers[i] = undefined;
      await server?.stop('SIGKILL');
    },
    /** One of the processes that are up, spread by `n`. */
    live(n: number): string | undefined {
      const up = urls.filter((u): u is string => u !== undefined);
      return up.length === 0 ? undefined : up[n % up.length];
    },
    async stopAll() {
      await Promise.all(servers.map((s) => s?.stop()));
    },
  };
}


async function api(base: string | undefined, key: string, method: string, path: string, body?: unknown) {
  if (!base) {
    // Every process is down for a moment: wait for the restart rather than spin.
    await pause(50);
    return { status: 0, json: undefined as Json };
  }
  try {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Json) : undefined };
  } catch {
    // Cut by a kill: the outcome is unknown, so it is neither counted nor held to account.
    await pause(20);
    return { status: 0, json: undefined as Json };
  }
}


const targets = await storeTargets();

for (const target of targets) {
  const processes = target.dialect === 'postgres' ? 2 : 1;
  describe(`SIGKILL under load (${target.dialect}, ${processes} process${processes > 1 ? 'es' : ''})`, { skip: target.skip }, () => {
    let cluster: ReturnType<typeof createCluster> | undefined;
    let drand: FakeDrand | undefined;
    let receiver: WebhookReceiver | undefined;
    let cleanup: (() => Promise<void>) | undefined;
    after(async () => {
      await cluster?.stopAll();
      await receiver?.close();
      await drand?.close();
      await cleanup?.().catch(() => {});
    });

    test('every acknowledged write survives, nothing is doubled, promised work completes', async () => {
      const opened = await target.open();
      await opened.store.close();
      cleanup = opened.cleanup;
      drand = await startFakeDrand({ clock: systemClock, period: 1 });
      receiver = await startReceiver();
      const env = {
        ...opened.env,
        PUBLIC_BASE_URL: 'http://tyche.crash.test',
        TYCHE_SOURCES: 'system',
        DRAND_URL: drand.url,
        DRAND_CHAIN: JSON.stringify(drand.info),
        TYCHE_SEAL_DELAY_ROUNDS: '2',
        TYCHE_DRAW_WAIT_MS: '0',
        TYCHE_WEBHOOK_ALLOW_PRIVATE: 'true',
        TYCHE_WEBHOOK_RETRY_S: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1',
        TYCHE_PUBLIC_RATE_LIMIT: '0',
        LOG_LEVEL: 'warn',
      } as Record<string, string>;
      const created = await runTyche(['keys', 'create', '--json', '--daily-limit', '1000000'], env);
      assert.equal(created.code, 0, created.stderr);
      const key = JSON.parse(created.stdout).key as string;
      cluster = createCluster(env, processes);
      for (let i = 0; i < processes; i++) await cluster.start(i);
      const c = cluster;
      const hook = await api(c.live(0), key, 'POST', '/webhooks', {
        url: receiver.url,
        events: ['participant.joined', 'giveaway.sealed', 'giveaway.drawn'],
      });
      assert.equal(hook.status, 201);

      const acked: Acked = { entrants: new Map(), sealed: new Set(), drawn: new Set() };
      let stop = false;
      let nextId = 1;
      let requests = 0;
      const client = async (n: number) => {
        while (!stop) {
          const mode = n % 2 === 0 ? 'verifiable' : 'instant';
          const made = await api(c.live(n + requests), key, 'POST', '/giveaways', {
            title: `Crash ${n}`,
            winners_count: 1,
            draw_mode: mode,
          });
          requests++;
          if (made.status !== 201) continue;
          const id = made.json.public_id as string;
          acked.entrants.set(id, new Set());
          for (let batch = 0; batch < 5 && !stop; batch++) {
            const people = Array.from({ length: 20 }, () => ({ telegram_id: nextId++ }));
            const added = await api(c.live(n + requests++), key, 'POST', `/giveaways/${id}/participants`, {
              participants: people,
            });
            if (added.status === 200) for (const p of people) acked.entrants.get(id)!.add(p.telegram_id);
          }
          const close = mode === 'verifiable' ? `/giveaways/${id}/seal` : `/giveaways/${id}/draw`;
          const closed = await api(c.live(n + requests++), key, 'POST', close, {});
          if (closed.status === 200 && mode === 'verifiable') acked.sealed.add(id);
          if (closed.status === 200 && mode === 'instant') acked.drawn.add(id);
        }
      };
      const stateEnv = freshState();
      const killer = async () => {
        for (let k = 0; k < KILLS; k++) {
          await pause(LOAD_MS / (KILLS + 1));
          const victim = k % processes;
          await c.kill(victim);
          await c.start(victim);
          // A checkpoint served between kills, pinned: the final log must be consistent with it.
          if (k === Math.floor(KILLS / 2)) await runTyche(['log', 'verify', c.live(k)!], stateEnv);
        }
      };
      const load = Array.from({ length: CLIENTS }, (_, n) => client(n));
      await killer();
      stop = true;
      await Promise.all(load);
      const base = c.live(0)!;

      // Every acknowledged entrant is there, once, and the count says so.
      for (const [id, ids] of acked.entrants) {
        const seen = new Map<number, number>();
        let cursor: string | undefined;
        do {
          const page = await api(base, key, 'GET', `/giveaways/${id}/entrants?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          assert.equal(page.status, 200, JSON.stringify(page.json));
          for (const e of page.json.entrants) {
            assert.ok(!seen.has(e.telegram_id), `${id}: entrant ${e.telegram_id} twice`);
            seen.set(e.telegram_id, e.telegram_id);
          }
          cursor = page.json.next_cursor ?? undefined;
        } while (cursor);
        for (const telegramId of ids) assert.ok(seen.has(telegramId), `${id}: acknowledged entrant ${telegramId} is missing`);
        const giveaway = await api(base, key, 'GET', `/giveaways/${id}`);
        assert.equal(giveaway.json.participants_count, seen.size, `${id}: participants_count`);
      }

      // No giveaway stays sealed past its round; each drawn one has exactly one certificate.
      await until('every sealed giveaway drawn at its round', async () => {
        const list = await api(base, key, 'GET', '/giveaways?status=sealed&limit=200');
        return list.status === 200 && list.json.total === 0;
      });
      for (const id of [...acked.sealed, ...acked.drawn]) {
        const g = await api(base, key, 'GET', `/giveaways/${id}`);
        assert.equal(g.json.status, 'completed', id);
        assert.match(g.json.certificate_id, /^c_/);
        const again = await api(base, key, 'POST', `/giveaways/${id}/draw`, {});
        assert.equal(again.status, 409, `${id}: drawn once`);
        assert.equal(again.json.code, 'already_drawn');
        const still = await api(base, key, 'GET', `/giveaways/${id}`);
        assert.equal(still.json.certificate_id, g.json.certificate_id, `${id}: its certificate changed`);
      }
      const certificates = await opened_count(env, 'certificates');
      const completed = await opened_count(env, 'completed');
      assert.equal(certificates, completed, 'one certificate per completed giveaway');

      // The log holds together: every entry checks, and it only grew since the checkpoint pinned
      // between kills. (Monitoring names an owner who sealed several giveaways on one round,
      // which this load does on purpose.)
      const logged = await runTyche(['log', 'verify', base], stateEnv);
      for (const line of ['✓ Checkpoint', '✓ Tree', '✓ Entries', '✓ Consistency with the newest checkpoint seen before']) {
        assert.ok(logged.stdout.includes(line), `${line}:\n${logged.stdout}`);
      }
      assert.deepEqual(
        logged.stdout.split('\n').filter((l) => l.startsWith('✗') && !l.startsWith('✗ Monitoring')),
        [],
        logged.stdout,
      );

      // Every promised webhook arrives (at least once: repeats share their webhook-id). An attempt
      // cut by a kill is made again once its lease ends, and holds back its giveaway's later events
      // until then, so the wait allows for a lease.
      const promised = new Set<string>();
      for (const [id, ids] of acked.entrants) for (const telegramId of ids) promised.add(`participant.joined ${id} ${telegramId}`);
      for (const id of acked.sealed) promised.add(`giveaway.sealed ${id}`);
      for (const id of [...acked.sealed, ...acked.drawn]) promised.add(`giveaway.drawn ${id}`);
      const missing = () => {
        const got = new Set(
          receiver!.received.map((r) => {
            const e = JSON.parse(r.body);
            return e.type === 'participant.joined'
              ? `${e.type} ${e.data.public_id} ${e.data.entrant.telegram_id}`
              : `${e.type} ${e.data.public_id}`;
          }),
        );
        return [...promised].filter((p) => !got.has(p));
      };
      await until(`webhooks: ${promised.size} promised events`, async () => missing().length === 0, 180_000).catch(
        (error: Error) => {
          throw new Error(`${error.message}; still missing ${missing().slice(0, 5).join(', ')}`);
        },
      );
      const wanted = promised.size;
      process.stdout.write(
        `# ${target.dialect}: ${KILLS} kills, ${requests} requests, ${acked.entrants.size} giveaways, ` +
          `${wanted} events, ${receiver.received.length} deliveries\n`,
      );
    });
  });
}

/** Counts read straight from the store the processes share. */
async function opened_count(env: Record<string, string>, what: 'certificates' | 'completed'): Promise<number> {
  const { openStore } = await import('../src/store/store.ts');
  const store = openStore({ DATA_DIR: env.DATA_DIR, DATABASE_URL: env.DATABASE_URL });
  try {
    const query =
      what === 'certificates'
        ? store.db.selectFrom('certificates').select((eb) => eb.fn.countAll().as('n'))
        : store.db.selectFrom('giveaways').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'completed');
    return Number((await query.executeTakeFirstOrThrow()).n);
  } finally {
    await store.close();
  }
}
