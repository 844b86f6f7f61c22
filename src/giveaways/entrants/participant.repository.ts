import { type Kysely, sql } from 'kysely';
import { prepareQuery } from '../../store/prepared-query.ts';
import type { Database } from '../../store/schema.ts';
import { createEntrantLeaves, LEAVES_PER_PAGE } from './entrant-leaves.repository.ts';
import { createParticipantCsv } from './participant-csv.repository.ts';
import { createParticipantEntry } from './participant-entry.repository.ts';

export type { ParticipantRow } from './participant-entry.repository.ts';

/** "7\n42\n99" → [7, 42, 99]. Ids are below 2^53, so accumulating digits in a double is exact. */
function parseIdList(text: string): number[] {
  const ids: number[] = [];
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      ids.push(value);
      value = 0;
    } else {
      value = value * 10 + (c - 48);
    }
  }
  if (text.length > 0) ids.push(value);
  return ids;
}

/** An entrant as the seal, proofs and receipts see it. */
export interface EntrantRow {
  telegram_id: number;
  username: string | null;
  first_name: string | null;
  joined_at: number;
  salt: string;
  leaf_hash: string;
}

/**
 * One column of a giveaway's participants, sorted by itself and joined into one text by the store
 * (an ORDER BY inside the aggregate would make SQLite sort again).
 */
async function columnInOrder(
  trx: Kysely<Database>,
  giveawayId: number,
  column: 'telegram_id' | 'leaf_hash',
  separator: string,
): Promise<string> {
  const ordered = trx
    .selectFrom('participants')
    .select(column)
    .where('giveaway_id', '=', giveawayId)
    .orderBy(column)
    .as('ordered');
  const row = await trx
    .selectFrom(ordered)
    .select(sql<string | null>`string_agg(cast(${sql.ref(column)} as text), ${separator})`.as('joined'))
    .executeTakeFirst();
  return row?.joined ?? '';
}

const ENTRANT_COLUMNS = ['telegram_id', 'username', 'first_name', 'joined_at', 'salt', 'leaf_hash'] as const;

/**
 * One entrant of a giveaway by a unique column (its leaf hash or its Telegram id). Receipts,
 * tickets and proofs ask for one per request, so PostgreSQL prepares it once per connection.
 */
function entrantWhere(db: Kysely<Database>, column: 'leaf_hash' | 'telegram_id') {
  const query = prepareQuery(db, (slot) =>
    db
      .selectFrom('participants')
      .select(ENTRANT_COLUMNS)
      .where('giveaway_id', '=', slot<number>('giveaway'))
      .where(column, '=', slot<string | number>('value')),
  );
  return async (trx: Kysely<Database>, giveawayId: number, value: string | number) => {
    const row = (await query({ giveaway: giveawayId, value }, trx)).rows[0];
    return row ? entrantOf(row) : undefined;
  };
}

export function createParticipantRepository(db: Kysely<Database>) {
  const byLeaf = entrantWhere(db, 'leaf_hash');
  const byId = entrantWhere(db, 'telegram_id');
  return {
    ...createParticipantEntry(db),
    ...createParticipantCsv(db),

    /**
     * Every leaf hash in canonical (ascending) order, packed (n × 32 bytes). Read in pages along
     * the (giveaway_id, leaf_hash) index, each page one aggregated hex text (a row per entrant
     * costs far more at a million), written straight into the packed buffer: only one page is
     * ever held as text.
     */
    async leafHashesInOrder(giveawayId: number, trx: Kysely<Database> = db): Promise<Uint8Array> {
      const counted = await trx
        .selectFrom('participants')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('giveaway_id', '=', giveawayId)
        .executeTakeFirstOrThrow();
      const packed = Buffer.allocUnsafe(Number(counted.n) * 32);
      const leaves = createEntrantLeaves(trx);
      let filled = 0;
      let after = '';
      for (;;) {
        const text = await leaves.page(giveawayId, after, LEAVES_PER_PAGE);
        if (filled + text.length / 2 > packed.length) throw new Error('the list changed while read');
        filled += packed.write(text, filled, 'hex');
        if (text.length < LEAVES_PER_PAGE * 64) return packed.subarray(0, filled);
        after = text.slice(-64);
      }
    },

    /** Up to `limit` entrants in canonical order from `fromLeafHash` on (inclusive). */
    async entrantsFrom(
      giveawayId: number,
      fromLeafHash: string,
      limit: number,
      options: { inclusive: boolean } = { inclusive: true },
      trx: Kysely<Database> = db,
    ): Promise<EntrantRow[]> {
      const rows = await trx
        .selectFrom('participants')
        .select(ENTRANT_COLUMNS)
        .where('giveaway_id', '=', giveawayId)
        .where('leaf_hash', options.inclusive ? '>=' : '>', fromLeafHash)
        .orderBy('leaf_hash')
        .limit(limit)
        .execute();
      return rows.map(entrantOf);
    },

    async entrantByLeaf(giveawayId: number, leafHash: string, trx: Kysely<Database> = db) {
      return byLeaf(trx, giveawayId, leafHash);
    },

    async entrantById(giveawayId: number, telegramId: number, trx: Kysely<Database> = db) {
      return byId(trx, giveawayId, telegramId);
    },

    /**
     * Every telegram_id, read along the primary key, so in canonical (ascending) order on both
     * engines; runDraw checks the order and sorts if it ever is not. The store joins the ids
     * into one text that is parsed here: at a million participants a row per id costs
     * several times more. (An ORDER BY inside the aggregate would make SQLite sort again.)
     */
    async canonicalIds(giveawayId: number, trx: Kysely<Database> = db): Promise<number[]> {
      return parseIdList(await columnInOrder(trx, giveawayId, 'telegram_id', '\n'));
    },
  };
}

export type ParticipantRepository = ReturnType<typeof createParticipantRepository>;

function entrantOf(
  row: Omit<EntrantRow, 'salt' | 'leaf_hash'> & { salt: string | null; leaf_hash: string | null },
): EntrantRow {
  return {
    ...row,
    telegram_id: Number(row.telegram_id),
    joined_at: Number(row.joined_at),
    salt: row.salt ?? '',
    leaf_hash: row.leaf_hash ?? '',
  };
}
