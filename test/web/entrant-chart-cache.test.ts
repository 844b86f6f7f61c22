import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addParticipants } from '../giveaways/giveaway-helpers.ts';
import {
  createVerifiable,
  seal,
  startVerifiableApp,
  type VerifiableApp,
} from '../giveaways/verifiable-helpers.ts';
import { storeTargets } from '../helpers/stores.ts';

const HOUR_MS = 3_600_000;

// The /g chart groups the entrants by hour on every view while entries are open, and once per
// process after the list is closed: the stored joins are moved here behind the service's back
// to tell a fresh count from a kept one.
for (const target of await storeTargets()) {
  describe(`the entrants chart on /g (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    let key: string;
    let id: string;
    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect, delayRounds: 2 });
      key = await t.key();
      id = await createVerifiable(t, key, { winners_count: 1 });
      await addParticipants(t, key, id, [{ telegram_id: 1 }, { telegram_id: 2 }, { telegram_id: 3 }]);
    });
    after(() => t?.close());

    const points = async () => {
      const page = await t.app.inject({ url: `/g/${id}` });
      assert.equal(page.statusCode, 200);
      return Number(/data-points="(\d+)"/.exec(page.body)?.[1]);
    };
    const moveJoinBack = async (telegramId: number, hours: number) => {
      const giveaway = await t.store.db
        .selectFrom('giveaways')
        .select('id')
        .where('public_id', '=', id)
        .executeTakeFirstOrThrow();
      const row = await t.store.db
        .selectFrom('participants')
        .select('joined_at')
        .where('giveaway_id', '=', giveaway.id)
        .where('telegram_id', '=', telegramId)
        .executeTakeFirstOrThrow();
      await t.store.db
        .updateTable('participants')
        .set({ joined_at: Number(row.joined_at) - hours * HOUR_MS })
        .where('giveaway_id', '=', giveaway.id)
        .where('telegram_id', '=', telegramId)
        .execute();
    };

    test('open: every view counts the joins as stored now', async () => {
      assert.equal(await points(), 1);
      await moveJoinBack(1, 2);
      assert.equal(await points(), 3);
    });

    test('closed: the first view after the seal counts, later views show that count', async () => {
      assert.equal((await seal(t, key, id)).statusCode, 200);
      assert.equal(await points(), 3);
      await moveJoinBack(2, 5);
      assert.equal(await points(), 3);
    });
  });
}
