import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createConfig } from '../../src/config.ts';
import { createGiveawayRepository } from '../../src/giveaways/core/giveaway.repository.ts';
import { createEntrantLeaves } from '../../src/giveaways/entrants/entrant-leaves.repository.ts';
import {
  buildEntrantTree,
  entrantTreeBuilder,
  sealedTreeOf,
} from '../../src/giveaways/entrants/entrant-tree.ts';
import {
  createParticipantRepository,
  type ParticipantRow,
} from '../../src/giveaways/entrants/participant.repository.ts';
import { newEntrantLeaf } from '../../src/giveaways/entrants/participants.ts';
import { createServices } from '../../src/services.ts';
import type { Store } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';
import { referenceRoot } from './verifiable-helpers.ts';

// The seal reads the leaf hashes in pages of 16 384: these counts end a read on a short page, on a
// full page followed by an empty one, and on an empty list.
const PAGE = 16_384;

async function giveawayWith(store: Store, entrants: number) {
  const services = createServices(createConfig({ TYCHE_SOURCES: 'system' }), store);
  const { account_id } = await services.accounts.createKey({ plan: 'business' });
  const created = await services.giveaways.create(account_id, { title: 'Leaves', winners_count: 1 });
  const row = (await createGiveawayRepository(store.db).findByPublicId(created.public_id))!;
  const rows: ParticipantRow[] = [];
  for (let i = 1; i <= entrants; i++) {
    rows.push({
      giveaway_id: row.id,
      telegram_id: i * 7919,
      entry_number: i,
      username: null,
      first_name: null,
      joined_at: 1_767_225_600_000 + i,
      ...newEntrantLeaf(i * 7919),
    });
  }
  const participants = createParticipantRepository(store.db);
  await store.db.transaction().execute((trx) => participants.insertMany(rows, trx));
  return { id: row.id, leaves: rows.map((r) => r.leaf_hash!), participants };
}

describe('the entrant tree fed in pages', () => {
  test('pages of any size, chunk-aligned or not, give the tree of the whole list', () => {
    const count = 3 * 256 + 77;
    const leaves = new Uint8Array(count * 32);
    for (let i = 0; i < leaves.length; i++) leaves[i] = (i * 131 + 7) & 0xff;
    const whole = buildEntrantTree(leaves);
    for (const pages of [
      [count],
      [1, 255, 256, count - 512],
      [300, 0, 10, count - 310],
      [256, 256, 256, 77],
    ]) {
      const builder = entrantTreeBuilder();
      let at = 0;
      for (const n of pages) {
        builder.add(leaves.subarray(at * 32, (at + n) * 32));
        at += n;
      }
      assert.deepEqual(builder.finish(), whole, `pages ${pages.join(', ')}`);
    }
  });
});

for (const target of await storeTargets()) {
  describe(`entrant leaves read for the seal (${target.dialect})`, { skip: target.skip }, () => {
    for (const entrants of [2 * PAGE + 1, PAGE, 0]) {
      test(`${entrants} entrants: every leaf hash once, in byte order, and the tree of RFC 9162`, async () => {
        const { store, cleanup } = await target.open();
        try {
          const { id, leaves, participants } = await giveawayWith(store, entrants);
          const packed = await participants.leafHashesInOrder(id);
          // Lower-case hex sorts as its bytes do.
          const expected = [...leaves].sort();
          assert.equal(packed.length, entrants * 32);
          assert.equal(Buffer.from(packed).toString('hex'), expected.join(''));
          const tree = buildEntrantTree(packed);
          assert.equal(tree.count, entrants);
          assert.equal(
            Buffer.from(tree.root).toString('hex'),
            referenceRoot(expected.map((hex) => Buffer.from(hex, 'hex'))),
          );
          const firsts = expected.filter((_, i) => i % 256 === 0).join('');
          assert.equal(Buffer.from(tree.chunkFirsts).toString('hex'), firsts);
          // What the seal stores: read page by page and hashed chunk by chunk, the same bytes.
          const streamed = await sealedTreeOf(createEntrantLeaves(store.db), id);
          assert.deepEqual(streamed, tree);
        } finally {
          await cleanup();
        }
      });
    }
  });
}
