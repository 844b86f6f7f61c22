import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createConfig } from '../../src/config.ts';
import {
  createConditionRepository,
  LEFT_CHANNEL,
} from '../../src/giveaways/conditions/condition.repository.ts';
import { createGiveawayRepository } from '../../src/giveaways/core/giveaway.repository.ts';
import { createEntryRepository } from '../../src/giveaways/entrants/entry.repository.ts';
import {
  createParticipantRepository,
  type ParticipantRow,
} from '../../src/giveaways/entrants/participant.repository.ts';
import { newEntrantLeaf } from '../../src/giveaways/entrants/participants.ts';
import { createServices } from '../../src/services.ts';
import { storeTargets } from '../helpers/stores.ts';

const T0 = 1_767_225_600_000;
const USER = 424_242;

for (const target of await storeTargets()) {
  describe(`a user's entries across giveaways (${target.dialect})`, { skip: target.skip }, () => {
    test('an entrant moved out at the seal keeps its columns; /my lists kept and excluded entries newest first', async () => {
      const { store, cleanup } = await target.open();
      try {
        const services = createServices(createConfig({ TYCHE_SOURCES: 'system' }), store);
        const { account_id } = await services.accounts.createKey({ plan: 'business' });
        const giveaways = createGiveawayRepository(store.db);
        const participants = createParticipantRepository(store.db);
        const ids: number[] = [];
        for (const [i, title] of ['First', 'Second', 'Third'].entries()) {
          const created = await services.giveaways.create(account_id, { title, winners_count: 1 });
          const id = (await giveaways.findByPublicId(created.public_id))!.id;
          ids.push(id);
          const rows: ParticipantRow[] = [USER, USER + 1].map((telegram_id, n) => ({
            giveaway_id: id,
            telegram_id,
            entry_number: n + 1,
            username: telegram_id === USER ? 'alice' : null,
            first_name: 'Alice',
            joined_at: T0 + 10 * i + n,
            ...newEntrantLeaf(telegram_id),
          }));
          await store.db.transaction().execute((trx) => participants.insertMany(rows, trx));
        }

        const conditions = createConditionRepository(store.db);
        await conditions.markFailed(ids[1], [USER], LEFT_CHANNEL, T0 + 100);
        assert.equal(await conditions.excludeFailed(ids[1], T0 + 200), 1);
        const moved = await store.db.selectFrom('excluded_entrants').selectAll().execute();
        assert.deepEqual(
          moved.map((r) => ({
            giveaway_id: Number(r.giveaway_id),
            telegram_id: Number(r.telegram_id),
            entry_number: Number(r.entry_number),
            username: r.username,
            first_name: r.first_name,
            joined_at: Number(r.joined_at),
            reason: r.reason,
            excluded_at: Number(r.excluded_at),
          })),
          [
            {
              giveaway_id: ids[1],
              telegram_id: USER,
              entry_number: 1,
              username: 'alice',
              first_name: 'Alice',
              joined_at: T0 + 10,
              reason: LEFT_CHANNEL,
              excluded_at: T0 + 200,
            },
          ],
        );

        const entries = createEntryRepository(store.db);
        const latest = await entries.latestOf(USER, 10);
        assert.deepEqual(
          latest.map((e) => [e.title, e.entry_number, e.salt !== null, e.excluded, e.joined_at, e.status]),
          [
            ['Third', 1, true, null, T0 + 20, 'active'],
            ['Second', 1, false, LEFT_CHANNEL, T0 + 10, 'active'],
            ['First', 1, true, null, T0, 'active'],
          ],
        );
        assert.deepEqual(
          (await entries.latestOf(USER, 2)).map((e) => e.title),
          ['Third', 'Second'],
        );
        assert.deepEqual(await entries.latestOf(1, 10), []);
      } finally {
        await cleanup();
      }
    });
  });
}
