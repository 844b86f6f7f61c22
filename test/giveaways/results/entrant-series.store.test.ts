import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createConfig } from '../../../src/config.ts';
import { createGiveawayRepository } from '../../../src/giveaways/core/giveaway.repository.ts';
import {
  createParticipantRepository,
  type ParticipantRow,
} from '../../../src/giveaways/entrants/participant.repository.ts';
import { newEntrantLeaf } from '../../../src/giveaways/entrants/participants.ts';
import { createEntrantSeriesQuery, entrantSeriesOf } from '../../../src/giveaways/results/entrant-series.ts';
import { createWinnerNamesRepository } from '../../../src/giveaways/results/winner-names.repository.ts';
import { createServices } from '../../../src/services.ts';
import { storeTargets } from '../../helpers/stores.ts';

const HOUR = 3_600_000;
// 2026-01-01T00:00:00Z, an hour boundary.
const T0 = 1_767_225_600_000;

test('the series fills hours without joins and keeps a running total', () => {
  const s = entrantSeriesOf([
    { hour: 10, count: 2 },
    { hour: 13, count: 1 },
    { hour: 11, count: 0 },
  ]);
  assert.deepEqual(s, {
    step_s: 3600,
    start_s: [36_000, 39_600, 43_200, 46_800],
    joins: [2, 0, 0, 1],
    total: [2, 2, 2, 3],
  });
  assert.deepEqual(entrantSeriesOf([]), { step_s: 3600, start_s: [], joins: [], total: [] });
});

test('a long span is drawn in buckets of several hours, at most maxPoints of them', () => {
  const counts = Array.from({ length: 1000 }, (_, i) => ({ hour: 500 + i, count: 1 }));
  const s = entrantSeriesOf(counts, 100);
  assert.equal(s.step_s, 10 * 3600);
  assert.equal(s.joins.length, 100);
  assert.ok(s.joins.every((n) => n === 10));
  assert.equal(s.total.at(-1), 1000);
  assert.equal(s.start_s[1] - s.start_s[0], s.step_s);
});

for (const target of await storeTargets()) {
  describe(`entrants over time from the store (${target.dialect})`, { skip: target.skip }, () => {
    test('joins are counted per UTC hour; first names of winners by id', async () => {
      const { store, cleanup } = await target.open();
      try {
        const services = createServices(createConfig({ TYCHE_SOURCES: 'system' }), store);
        const { account_id } = await services.accounts.createKey({ plan: 'business' });
        const created = await services.giveaways.create(account_id, { title: 'Series', winners_count: 1 });
        const row = (await createGiveawayRepository(store.db).findByPublicId(created.public_id))!;
        // Two in the first hour (one on its last millisecond), none in the second, three in the third.
        const times = [T0, T0 + HOUR - 1, T0 + 2 * HOUR, T0 + 2 * HOUR + 5, T0 + 3 * HOUR - 1];
        const rows: ParticipantRow[] = times.map((joined_at, i) => ({
          giveaway_id: row.id,
          telegram_id: 1000 + i,
          entry_number: i + 1,
          username: i === 0 ? 'alice' : null,
          first_name: i === 1 ? 'Борис' : null,
          joined_at,
          ...newEntrantLeaf(1000 + i),
        }));
        const participants = createParticipantRepository(store.db);
        await store.db.transaction().execute((trx) => participants.insertMany(rows, trx));

        const series = createEntrantSeriesQuery(store.db);
        const s = (await series.forPublicId(created.public_id))!;
        assert.deepEqual(s, {
          step_s: 3600,
          start_s: [T0 / 1000, T0 / 1000 + 3600, T0 / 1000 + 7200],
          joins: [2, 0, 3],
          total: [2, 2, 5],
        });
        assert.deepEqual(await series.forGiveaway(row.id), s);
        assert.equal(await series.forPublicId('nope'), undefined);

        const names = createWinnerNamesRepository(store.db);
        assert.deepEqual(
          [...(await names.firstNames(created.public_id, [1000, 1001, 99]))],
          [[1001, 'Борис']],
        );
        assert.equal((await names.firstNames(created.public_id, [])).size, 0);
      } finally {
        await cleanup();
      }
    });
  });
}
