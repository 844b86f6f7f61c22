import { type Kysely, sql } from 'kysely';
import { prepareQuery } from '../../store/prepared-query.ts';
import type { Database } from '../../store/schema.ts';

/** Leaf hashes per read while sealing: 1 MB of hex text, 64 chunks. */
export const LEAVES_PER_PAGE = 16_384;

/**
 * The leaf hashes of a giveaway's list as the seal and the proofs read them: in canonical
 * (ascending) order along the (giveaway_id, leaf_hash) index, a page at a time, each page one
 * hex text joined by the store. A row per entrant costs far more than the hashing at millions,
 * and neither the tree nor a proof needs anything of an entrant but its leaf.
 */
export function createEntrantLeaves(db: Kysely<Database>) {
  // A proof or receipt reads one chunk per request: PostgreSQL prepares each form once per connection.
  const from = (op: '>' | '>=') =>
    prepareQuery(db, (slot) => {
      // An ORDER BY inside the aggregate would make SQLite sort again; the subquery's order holds.
      const ordered = db
        .selectFrom('participants')
        .select('leaf_hash')
        .where('giveaway_id', '=', slot<number>('giveaway'))
        .where('leaf_hash', op, slot<string>('after'))
        .orderBy('leaf_hash')
        .limit(slot<number>('limit'))
        .as('ordered');
      return db.selectFrom(ordered).select(sql<string | null>`string_agg(leaf_hash, '')`.as('leaves'));
    });
  const pageAfter = from('>');
  const pageFrom = from('>=');
  return {
    /**
     * Up to `limit` leaf hashes after `after` ('' for the first page), or from it on when
     * `inclusive`, joined in order: `limit` × 64 hex digits when the page is full.
     */
    async page(giveawayId: number, after: string, limit: number, inclusive = false): Promise<string> {
      const query = inclusive ? pageFrom : pageAfter;
      const { rows } = await query({ giveaway: giveawayId, after, limit });
      const text = rows[0]?.leaves ?? '';
      if (text.length % 64 !== 0) throw new Error('leaf hashes are not 32 bytes each');
      return text;
    },
  };
}

export type EntrantLeaves = ReturnType<typeof createEntrantLeaves>;
