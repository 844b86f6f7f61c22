import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

const EXAMPLES = 3;

/**
 * Entrants whose telegram_id no Telegram user can have: not a positive safe integer. Bodies
 * used to let `1e400` through, which SQLite stores as `Inf`; the participants hash then covers
 * an id the CSV cannot show, so such a draw can never be checked, and migration 006 leaves
 * most of these rows without a salt. They are kept, since removing entrants is the operator's
 * decision, and each giveaway holding any is reported in one line after every migration run.
 */
export async function impossibleEntrantIds(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
): Promise<string[]> {
  // A PostgreSQL bigint is always an integer; a SQLite column takes any value, Inf and text too.
  const impossible =
    dialect === 'sqlite'
      ? sql`(typeof(p.telegram_id) <> 'integer' or p.telegram_id < 1 or p.telegram_id > ${Number.MAX_SAFE_INTEGER})`
      : sql`(p.telegram_id < 1 or p.telegram_id > ${Number.MAX_SAFE_INTEGER})`;
  const { rows } = await sql<{ id: number; public_id: string; status: string; count: number }>`
    select g.id, g.public_id, g.status, count(*) as count
    from participants p join giveaways g on g.id = p.giveaway_id
    where ${impossible}
    group by g.id, g.public_id, g.status
    order by g.id`.execute(db);
  const lines: string[] = [];
  for (const giveaway of rows) {
    const examples = await sql<{ id: string }>`
      select cast(p.telegram_id as text) as id from participants p
      where p.giveaway_id = ${giveaway.id} and ${impossible}
      order by p.entry_number
      limit ${EXAMPLES}`.execute(db);
    const count = Number(giveaway.count);
    const shown = examples.rows.map((row) => row.id).join(', ') + (count > EXAMPLES ? ', …' : '');
    lines.push(
      `giveaway ${giveaway.public_id} (${giveaway.status}): ${count} participant${count === 1 ? '' : 's'} ` +
        `with an impossible telegram_id (${shown}), not a positive integer up to 2^53-1; ` +
        'kept as stored; no draw that includes them can be verified',
    );
  }
  return lines;
}
