import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { nodeSha256 } from '../../src/cli/verify/verify-context.ts';
import { verifySignedResult } from '../../src/proof/signed-result.ts';
import { runTyche, runTycheProcess } from '../helpers/cli.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

interface Signed {
  signature: { kid: string };
}
interface Result extends Record<string, unknown> {
  signed: Signed & { issued_at: string };
}
interface PublishedKey {
  kid: string;
  retired_at: string | null;
}

async function call(url: string, key: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.equal(res.status, body === undefined ? 200 : res.status, JSON.stringify(json));
  return { status: res.status, json };
}

/** An instant draw from start to end; its certificate id. */
async function drawOnce(url: string, key: string, n: number): Promise<string> {
  const made = await call(url, key, '/giveaways', {
    title: `Load ${n}`,
    winners_count: 1,
    draw_mode: 'instant',
  });
  assert.equal(made.status, 201, JSON.stringify(made.json));
  const id = made.json.public_id as string;
  const participants = [1, 2, 3].map((i) => ({ telegram_id: n * 10 + i }));
  assert.equal((await call(url, key, `/giveaways/${id}/participants`, { participants })).status, 200);
  const drawn = await call(url, key, `/giveaways/${id}/draw`, {});
  assert.equal(drawn.status, 200, JSON.stringify(drawn.json));
  return drawn.json.certificate_id as string;
}

/** Every log entry's signed object, by index, read through the public API. */
async function logObjects(
  url: string,
): Promise<{ index: number; kind: string; object: Record<string, unknown> }[]> {
  const size = Number((await (await fetch(`${url}/log/checkpoint`)).text()).split('\n')[1]);
  const all = [];
  for (let start = 0; start < size; start += 1000) {
    const page = await (
      await fetch(`${url}/log/entries?start=${start}&end=${Math.min(size, start + 1000)}`)
    ).json();
    for (const e of page.entries as { index: number; kind: string; leaf_data: string }[]) {
      all.push({
        index: e.index,
        kind: e.kind,
        object: JSON.parse(Buffer.from(e.leaf_data, 'base64').toString()),
      });
    }
  }
  return all;
}

const targets = await storeTargets();

// PostgreSQL: two servers, the deployment that scales out. SQLite: one server, the CLI beside it.
for (const target of targets) {
  const count = target.dialect === 'postgres' ? 2 : 1;
  describe(`a rotation under load on ${target.dialect} (${count} server processes)`, {
    skip: target.skip,
  }, () => {
    const servers: ServerProcess[] = [];
    let cleanup: (() => Promise<void>) | undefined;
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await cleanup?.().catch(() => {});
    });

    test('every signature made while the key rotates and retires verifies; none by the old key after its retirement', async () => {
      const opened = await target.open();
      await opened.store.close();
      cleanup = opened.cleanup;
      const env = { ...opened.env, TYCHE_SOURCES: 'system' } as Record<string, string>;
      servers.push(...(await Promise.all(Array.from({ length: count }, () => startServerProcess(env)))));
      const created = await runTyche(['keys', 'create', '--daily-limit', '1000000', '--json'], env);
      const key = JSON.parse(created.stdout).key as string;

      const results: { server: number; result: Result }[] = [];
      const certificates: string[] = [];
      let running = true;
      // Each answer wakes whoever waits for the load to reach a point; nothing polls.
      let wake = () => {};
      const resultLoad = async (server: number) => {
        while (running) {
          const path = '/random/int?min=1&max=1000&count=3&signed=true';
          results.push({ server, result: (await call(servers[server].url, key, path)).json as Result });
          wake();
        }
      };
      const drawLoad = async (server: number) => {
        for (let n = server * 100_000; running; n++) {
          certificates.push(await drawOnce(servers[server].url, key, n));
          wake();
        }
      };
      const workers = servers.flatMap((_, i) => [resultLoad(i), drawLoad(i)]);
      const failed = Promise.all(workers).then(() => {
        throw new Error('the load stopped');
      });
      // Awaited only while the test waits on the load; once it is stopped, its end is expected.
      failed.catch(() => {});
      const reached = async (done: () => boolean) => {
        while (!done()) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), failed]);
      };
      const answered = (server: number) => results.filter((r) => r.server === server).length;
      const signedBy = (kid: string) =>
        servers.map((_, i) => results.some((r) => r.server === i && r.result.signed.signature.kid === kid));

      try {
        await reached(() => servers.every((_, i) => answered(i) >= 10) && certificates.length >= count);
        const old = results[0].result.signed.signature.kid;

        const rotated = await runTycheProcess(['signing-key', 'rotate', '--wait', '--json'], env);
        assert.equal(rotated.code, 0, rotated.stdout + rotated.stderr);
        const { kid, replaced, retired } = JSON.parse(rotated.stdout);
        assert.deepEqual(replaced, [old]);
        assert.deepEqual(Object.keys(retired), [old]);
        // Load goes on a little after the retirement; by then every process signs with the new key.
        const marks = servers.map((_, i) => answered(i));
        await reached(() => servers.every((_, i) => answered(i) >= marks[i] + 10));
        assert.deepEqual(signedBy(old), Array(count).fill(true));
        assert.deepEqual(signedBy(kid), Array(count).fill(true));
      } finally {
        running = false;
        await Promise.allSettled(workers);
      }
      const keys = await (await fetch(`${servers[0].url}/.well-known/tyche-keys.json`)).json();
      const [old, fresh] = keys.keys as PublishedKey[];
      assert.ok(old.retired_at !== null && fresh.retired_at === null, JSON.stringify(keys.keys));
      for (const { result } of results) {
        const report = verifySignedResult(result, keys, nodeSha256);
        assert.ok(report.valid, JSON.stringify(report.checks.filter((c) => !c.ok)));
        if (result.signed.signature.kid === old.kid) assert.ok(result.signed.issued_at <= old.retired_at);
      }

      // In the log, the retirement comes after everything the old key signed.
      const entries = await logObjects(servers[0].url);
      const retirement = entries.find(
        (e) => e.kind === 'key' && e.object.kid === old.kid && e.object.retired_at,
      );
      assert.ok(retirement);
      const byOld = entries.filter(
        (e) => (e.object.signature as Signed['signature'] | undefined)?.kid === old.kid,
      );
      assert.ok(byOld.length > 0);
      assert.ok(byOld.every((e) => e.index < retirement.index));
      assert.ok(certificates.length >= 2 * count);
      const audit = await runTyche(['log', 'verify', `${servers[0].url}/log`, '--json'], {});
      assert.equal(audit.code, 0, audit.stdout + audit.stderr);
    });
  });
}
