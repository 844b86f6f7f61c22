import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createConfig } from '../../src/config.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { Store } from '../../src/store/store.ts';
import { runTyche } from '../helpers/cli.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

/** Ids no Telegram user has, as each engine can hold them (SQLite takes Inf, fractions and text). */
const IMPOSSIBLE = {
  sqlite: [
    { value: Number.POSITIVE_INFINITY, shown: 'Inf' },
    { value: 1.5, shown: '1.5' },
    { value: 0, shown: '0' },
    { value: -7, shown: '-7' },
  ],
  postgres: [
    { value: 0, shown: '0' },
    { value: -7, shown: '-7' },
    { value: 2 ** 53, shown: '9007199254740992' },
    { value: -(2 ** 62), shown: String(-(2n ** 62n)) },
  ],
};

for (const target of await storeTargets()) {
  describe(`impossible entrant ids are reported after migrations on ${target.dialect}`, {
    skip: target.skip,
  }, () => {
    let opened: Awaited<ReturnType<typeof target.open>>;
    let store: Store;
    let services: Services;
    let accountId: string;
    before(async () => {
      opened = await target.open();
      store = opened.store;
      services = createServices(createConfig({ ...opened.env, TYCHE_SOURCES: 'system' }), store);
      const { key } = await services.accounts.createKey({ plan: 'business' });
      accountId = (await services.accounts.authenticate(`Bearer ${key}`)).accountId;
    });
    after(() => opened.cleanup());

    async function giveawayWith(ids: number[]): Promise<{ publicId: string; rowId: number }> {
      const { public_id } = await services.giveaways.create(accountId, { title: 'Ids', winners_count: 1 });
      if (ids.length > 0) {
        await services.giveaways.addParticipants(
          accountId,
          public_id,
          ids.map((telegram_id) => ({ telegram_id })),
        );
      }
      const row = await store.db
        .selectFrom('giveaways')
        .select('id')
        .where('public_id', '=', public_id)
        .executeTakeFirstOrThrow();
      return { publicId: public_id, rowId: Number(row.id) };
    }

    /** Rows as an older version could leave them, written past every check of the service. */
    async function insertRaw(giveawayRowId: number, values: number[], firstEntry: number) {
      const rows = values.map((value, i) => [giveawayRowId, value, firstEntry + i, Date.now()] as const);
      const insert = 'insert into participants (giveaway_id, telegram_id, entry_number, joined_at) values ';
      if (target.dialect === 'sqlite') {
        const db = new DatabaseSync(join(opened.env.DATA_DIR, 'tyche.sqlite'), { timeout: 10_000 });
        try {
          const statement = db.prepare(`${insert}(?, ?, ?, ?)`);
          for (const row of rows) statement.run(...row);
        } finally {
          db.close();
        }
      } else {
        const client = new pg.Client({ connectionString: opened.env.DATABASE_URL });
        await client.connect();
        try {
          for (const [giveaway, value, entry, at] of rows) {
            // BigInt keeps ids beyond 2^53 exact on their way in.
            await client.query(`${insert}($1, $2, $3, $4)`, [giveaway, BigInt(value).toString(), entry, at]);
          }
        } finally {
          await client.end();
        }
      }
    }

    test('a migrated store with valid ids only reports nothing', async () => {
      await giveawayWith([1, 2, Number.MAX_SAFE_INTEGER]);
      const report = await store.migrate();
      assert.deepEqual(report, { applied: [], warnings: [] });
    });

    test('one line per affected giveaway with its count and the ids as stored; valid giveaways unnamed', async () => {
      const impossible = IMPOSSIBLE[target.dialect];
      const bad = await giveawayWith([5, 6]);
      await insertRaw(
        bad.rowId,
        impossible.map((id) => id.value),
        3,
      );
      const single = await giveawayWith([]);
      await insertRaw(single.rowId, [impossible[0].value], 1);
      const clean = await giveawayWith([10, 11]);

      const { applied, warnings } = await store.migrate();
      assert.deepEqual(applied, []);
      assert.equal(warnings.length, 2, warnings.join('\n'));
      const [badLine, singleLine] = warnings;
      assert.ok(
        badLine.startsWith(
          `giveaway ${bad.publicId} (active): 4 participants with an impossible telegram_id (`,
        ),
      );
      const shown = impossible.slice(0, 3).map((id) => id.shown);
      assert.ok(badLine.includes(`(${shown.join(', ')}, …)`), badLine);
      assert.ok(
        singleLine.startsWith(`giveaway ${single.publicId} (active): 1 participant with`),
        singleLine,
      );
      assert.ok(singleLine.includes(`(${impossible[0].shown})`), singleLine);
      assert.ok(!warnings.some((line) => line.includes(clean.publicId)));
      assert.ok(
        warnings.every((line) => !line.includes('\n')),
        'each warning is one line',
      );

      // The rows are reported, not changed: the valid entrants keep their place beside them.
      const kept = await store.db
        .selectFrom('participants')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('giveaway_id', '=', bad.rowId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(kept.n), 6);

      const cli = await runTyche(['migrate'], opened.env);
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stdout, /Already up to date/);
      const printed = cli.stderr.split('\n').filter((line) => line.startsWith('warning: '));
      assert.deepEqual(
        printed,
        warnings.map((line) => `warning: ${line}`),
      );

      const server = await startServerProcess({ ...opened.env, TYCHE_SOURCES: 'system' });
      try {
        const logged = server.logs
          .map((line) => JSON.parse(line) as { level: number; msg: string })
          .filter((entry) => entry.level === 40);
        assert.deepEqual(
          logged.map((entry) => entry.msg),
          warnings,
        );
      } finally {
        assert.equal(await server.stop(), 0);
      }
    });
  });
}
