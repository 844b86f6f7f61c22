import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createConfig } from '../../src/config.ts';
import { createGiveawayRepository } from '../../src/giveaways/core/giveaway.repository.ts';
import type { ParticipantBatch } from '../../src/giveaways/entrants/participants.ts';
import { createServices, type Services } from '../../src/services.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';

const BATCH = 10_000;
async function* batches(count: number): AsyncGenerator<ParticipantBatch> {
  for (let from = 1; from <= count; from += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, count - from + 1) }, (_, i) => 7_000_000 + from + i);
    yield {
      participants: ids.map((telegram_id) => ({ telegram_id })),
      lines: ids.map((_, i) => from + i + 1),
    };
  }
}

for (const target of await storeTargets()) {
  describe(`reads after a bulk entry (${target.dialect})`, { skip: target.skip }, () => {
    let opened: OpenedStore;
    let services: Services;
    before(async () => {
      opened = await target.open();
      services = createServices(createConfig({ TYCHE_SOURCES: 'system' }), opened.store);
    });
    after(() => opened?.cleanup());

    /** The plan of a query, one line per step, as the store explains it. */
    async function planOf(query: string): Promise<string> {
      const explain = target.dialect === 'postgres' ? 'explain' : 'explain query plan';
      const { rows } = await sql.raw(`${explain} ${query}`).execute(opened.store.db);
      return rows.map((row) => Object.values(row as object).join(' ')).join('\n');
    }

    test('60 000 entered in one upload: the ordered reads walk their indexes, sorting nothing', async () => {
      const accountId = (await services.accounts.createKey({ plan: 'business' })).account_id;
      const created = await services.giveaways.create(accountId, { title: 'Bulk', winners_count: 1 });
      await services.giveaways.uploadParticipants(accountId, created.public_id, batches(60_000));
      const row = await createGiveawayRepository(opened.store.db).findByPublicId(created.public_id);
      const id = row!.id;

      // The seal's page of leaf hashes, and the first page of the CSV export.
      const leaves = await planOf(
        `select leaf_hash from participants where giveaway_id = ${id} and leaf_hash > '' order by leaf_hash limit 16384`,
      );
      assert.match(leaves, /participants_leaf/);
      assert.doesNotMatch(leaves, /Sort|TEMP B-TREE/);
      const csv = await planOf(
        `select telegram_id from participants where giveaway_id = ${id} order by joined_at / 1000, telegram_id limit 5000`,
      );
      assert.match(csv, /participants_csv_order/);
      assert.doesNotMatch(csv, /Sort|TEMP B-TREE/);

      if (target.dialect === 'postgres') {
        // Analyzed once the table had grown to 50 000 in the upload's own transaction, not again.
        const counted = await sql<{ n: number }>`
          select reltuples as n from pg_class where relname = 'participants'`.execute(opened.store.db);
        const n = Number(counted.rows[0].n);
        assert.ok(n >= 45_000 && n <= 55_000, `the statistics count ${n} rows`);
      }
    });
  });
}
