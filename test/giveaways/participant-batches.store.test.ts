import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createConfig } from '../../src/config.ts';
import { createGiveawayRepository } from '../../src/giveaways/core/giveaway.repository.ts';
import { createParticipantRepository } from '../../src/giveaways/entrants/participant.repository.ts';
import {
  LISTED_LINES,
  newEntrantLeaf,
  type ParticipantBatch,
  type ParticipantInput,
} from '../../src/giveaways/entrants/participants.ts';
import { createServices, type Services } from '../../src/services.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';

const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const batch = (list: number[], firstLine = 2): ParticipantBatch => ({
  participants: list.map((telegram_id) => ({ telegram_id, username: `u${telegram_id}` })),
  lines: list.map((_, i) => firstLine + i),
});
async function* batches(...list: ParticipantBatch[]) {
  yield* list;
}

type Names = { username: string | null; first_name: string | null };
/** Rows of giveaway `id` as the store writes them, each numbered by its id, named by `names`. */
const rowsOf = (
  id: number,
  list: number[],
  names: (n: number) => Names = () => ({ username: null, first_name: null }),
) =>
  list.map((n) => ({
    giveaway_id: id,
    telegram_id: n,
    entry_number: n,
    ...names(n),
    joined_at: 1_767_225_600_000 + n,
    ...newEntrantLeaf(n),
  }));

for (const target of await storeTargets()) {
  describe(`bulk entry in the store (${target.dialect})`, { skip: target.skip }, () => {
    let opened: OpenedStore;
    let services: Services;
    let accountId: string;
    before(async () => {
      opened = await target.open();
      services = createServices(createConfig({ TYCHE_SOURCES: 'system' }), opened.store);
      accountId = (await services.accounts.createKey({ plan: 'business' })).account_id;
    });
    after(() => opened?.cleanup());

    const giveaway = async () => {
      const created = await services.giveaways.create(accountId, { title: 'Bulk', winners_count: 1 });
      const row = await createGiveawayRepository(opened.store.db).findByPublicId(created.public_id);
      return { publicId: created.public_id, id: row!.id };
    };
    const stored = async (id: number) =>
      opened.store.db
        .selectFrom('participants')
        .select(['telegram_id', 'entry_number', 'username', 'first_name', 'salt', 'leaf_hash'])
        .where('giveaway_id', '=', id)
        .orderBy('entry_number')
        .execute();

    test('rows in full statements and power-of-two rests, nulls kept; other shapes as Kysely builds them', async () => {
      const { id } = await giveaway();
      const participants = createParticipantRepository(opened.store.db);
      const rows = rowsOf(id, ids(1, 3_517), (n) => ({
        username: n % 3 === 0 ? null : `user_${n}`,
        first_name: n % 5 === 0 ? `Name, "${n}"` : null,
      }));
      await opened.store.db.transaction().execute((trx) => participants.insertMany(rows, trx));
      const back = await stored(id);
      assert.equal(back.length, rows.length);
      for (const [i, row] of back.entries()) {
        const { giveaway_id: _, joined_at: __, ...expected } = rows[i];
        assert.deepEqual(
          { ...row, telegram_id: Number(row.telegram_id), entry_number: Number(row.entry_number) },
          expected,
        );
      }
      // A row without `first_name` has another shape: the whole batch goes the general way.
      const { first_name: _, ...without } = {
        ...rows[0],
        telegram_id: 9_000_001,
        entry_number: 9_000_001,
        ...newEntrantLeaf(9_000_001),
      };
      await participants.insertMany([
        { ...rows[1], telegram_id: 9_000_002, entry_number: 9_000_002, ...newEntrantLeaf(9_000_002) },
        without as (typeof rows)[0],
      ]);
      assert.equal((await stored(id)).length, rows.length + 2);
    });

    test('entry numbers of 25 000 ids in one lookup: known ones only, repeats and unknowns ignored', async () => {
      const { publicId, id } = await giveaway();
      await services.giveaways.uploadParticipants(accountId, publicId, batches(batch(ids(1, 10_000))));
      const asked = [...ids(5_001, 20_000), 7, 7, 9_999];
      const numbers = await createParticipantRepository(opened.store.db).entryNumbers(id, asked);
      assert.equal(numbers.size, 5_000 + 1);
      assert.equal(numbers.get(7), 7);
      assert.equal(numbers.get(10_000), 10_000);
      assert.equal(numbers.get(10_001), undefined);
    });

    // PostgreSQL plans by statistics; SQLite probes each id of its json_each.
    if (target.dialect === 'postgres')
      test('joined ids are looked up one probe each, also among rows the statistics never saw', async () => {
        // The table's statistics know only another giveaway's rows; this one's arrive in the
        // lookup's own transaction, as an upload's earlier batches do.
        const other = await giveaway();
        await services.giveaways.uploadParticipants(accountId, other.publicId, batches(batch(ids(1, 3_000))));
        await sql`analyze participants`.execute(opened.store.db);
        const { id } = await giveaway();
        const participants = createParticipantRepository(opened.store.db);
        const rows = rowsOf(id, ids(1, 6_000));
        const read = await opened.store.db.transaction().execute(async (trx) => {
          await participants.insertMany(rows, trx);
          const counters = () =>
            sql<{ scans: string; fetched: string }>`select idx_scan as scans, idx_tup_fetch as fetched
              from pg_stat_xact_user_tables where relid = 'participants'::regclass`.execute(trx);
          const [start] = (await counters()).rows;
          const numbers = await participants.entryNumbers(id, [...ids(5_951, 100), 7_000_000], trx);
          const [end] = (await counters()).rows;
          assert.equal(numbers.size, 50);
          assert.equal(numbers.get(6_000), 6_000);
          return {
            scans: Number(end.scans) - Number(start.scans),
            fetched: Number(end.fetched) - Number(start.fetched),
          };
        });
        // One index probe per id asked, and only the rows found: not the giveaway's 6 000 rows.
        assert.deepEqual(read, { scans: 101, fetched: 50 });
      });

    test('an upload: numbered in order across batches, duplicates by line, the first 100 listed', async () => {
      const { publicId, id } = await giveaway();
      await services.giveaways.addParticipants(accountId, publicId, [{ telegram_id: 3 }]);
      // 150 repeats: 3 (already joined), then ids 1…149 of the first batch again in the second.
      const first = batch([1, 2, 3, ...ids(4, 146)]);
      const second = batch([...ids(150, 50), ...ids(1, 149), 200], 1_000);
      const uploaded = await services.giveaways.uploadParticipants(
        accountId,
        publicId,
        batches(first, second),
      );
      assert.equal(uploaded.added, 200 - 1);
      assert.equal(uploaded.duplicates, 150);
      assert.equal(uploaded.participants_count, 200);
      assert.equal(uploaded.duplicate_lines.length, LISTED_LINES);
      assert.deepEqual(uploaded.duplicate_lines.slice(0, 3), [4, 1_050, 1_051]);
      const rows = await stored(id);
      assert.deepEqual(
        rows.map((r) => Number(r.entry_number)),
        ids(1, 200),
      );
      assert.deepEqual(
        rows.slice(0, 4).map((r) => Number(r.telegram_id)),
        [3, 1, 2, 4],
      );
      assert.ok(
        rows.every((r) => /^[0-9a-f]{32}$/.test(r.salt ?? '') && /^[0-9a-f]{64}$/.test(r.leaf_hash ?? '')),
      );
      assert.equal(new Set(rows.map((r) => r.salt)).size, rows.length, 'a salt of its own for each entrant');
    });

    test('an upload that fails part-way leaves nothing behind', async () => {
      const { publicId, id } = await giveaway();
      await services.giveaways.addParticipants(accountId, publicId, [{ telegram_id: 1 }]);
      async function* failing() {
        yield batch(ids(2, 10_000));
        throw new Error('the disk went away');
      }
      await assert.rejects(
        services.giveaways.uploadParticipants(accountId, publicId, failing()),
        /disk went away/,
      );
      assert.equal((await stored(id)).length, 1);
      const row = await createGiveawayRepository(opened.store.db).findById(id);
      assert.equal(Number(row!.participants_count), 1);
      const next: ParticipantInput[] = [{ telegram_id: 2 }];
      assert.equal(
        (await services.giveaways.addParticipants(accountId, publicId, next)).participants_count,
        2,
      );
    });
  });
}
