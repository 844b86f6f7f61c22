import { createHash, randomBytes } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const BATCH = 2000;

// Frozen copies of what this migration needed when it shipped (giveaways/ids.ts, proof/entrant-leaf.ts):
// the data it wrote must not change when that live code does.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SALT_BYTES = 16;
const ENTRANT_DOMAIN = Buffer.from('tyche-entrant-v2');

/** `o_` and 16 base62 characters, each byte below 248 (4 × 62) so every character is equally likely. */
function newOwnerPseudonym(): string {
  let out = '';
  while (out.length < 16) {
    for (const byte of randomBytes(32)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === 16) break;
    }
  }
  return `o_${out}`;
}

/** RFC 9162 leaf hash of "tyche-entrant-v2" ‖ 0x00 ‖ salt ‖ uint64_be(telegram_id), as lower-case hex. */
function entrantLeafHex(salt: Uint8Array, telegramId: number): string {
  const id = Buffer.alloc(8);
  id.writeBigUInt64BE(BigInt(telegramId));
  const data = Buffer.concat([ENTRANT_DOMAIN, Buffer.alloc(1), salt, id]);
  return createHash('sha256')
    .update(Buffer.concat([Buffer.alloc(1), data]))
    .digest('hex');
}

/**
 * tyche-draw-v2 (CONTRACT §7): draw modes, entry deadlines and reserves on giveaways; a salt and
 * leaf hash for every entrant (existing ones get theirs here); owner pseudonyms; and the seal
 * with the upper levels of its entrant tree. Giveaways made before verifiable draws keep the
 * behaviour they were created with: `instant`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const blob = postgres ? 'bytea' : 'blob';

  await db.schema
    .alterTable('giveaways')
    .addColumn('draw_mode', 'text', (c) => c.notNull().defaultTo('instant'))
    .execute();
  await db.schema.alterTable('giveaways').addColumn('ends_at', 'bigint').execute();
  await db.schema
    .alterTable('giveaways')
    .addColumn('reserve_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('giveaways').addColumn('sealed_at', 'bigint').execute();

  await db.schema.alterTable('accounts').addColumn('owner_pseudonym', 'text').execute();
  const accounts = await sql<{ id: string }>`select id from accounts where owner_pseudonym is null`.execute(
    db,
  );
  for (const { id } of accounts.rows) {
    await sql`update accounts set owner_pseudonym = ${newOwnerPseudonym()} where id = ${id}`.execute(db);
  }
  await sql`create unique index accounts_owner_pseudonym on accounts (owner_pseudonym)`.execute(db);

  await db.schema.alterTable('participants').addColumn('salt', 'text').execute();
  // Byte order of the hex is the canonical order; PostgreSQL must not compare it by locale.
  if (postgres) await sql`alter table participants add column leaf_hash text collate "C"`.execute(db);
  else await db.schema.alterTable('participants').addColumn('leaf_hash', 'text').execute();
  await backfillLeaves(db, postgres);
  await sql`create unique index participants_leaf on participants (giveaway_id, leaf_hash)`.execute(db);

  await db.schema
    .createTable('seals')
    .addColumn('giveaway_id', 'bigint', (c) => c.primaryKey().references('giveaways.id'))
    .addColumn('seal_id', 'text', (c) => c.notNull().unique())
    /** The signed seal JSON as published, never rewritten. */
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('round', 'bigint', (c) => c.notNull())
    .addColumn('round_at', 'bigint', (c) => c.notNull())
    .addColumn('entrants_count', 'integer', (c) => c.notNull())
    // The entrant tree above its 256-leaf chunks: each chunk's root and first leaf hash, packed.
    // A proof then reads one chunk of leaves and these, never the whole list.
    .addColumn('chunk_roots', blob, (c) => c.notNull())
    .addColumn('chunk_firsts', blob, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Existing entrants get a salt now; a row whose id is not a positive safe integer is left for the id check. */
async function backfillLeaves(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  for (;;) {
    // SQLite's column affinity lets a real (1.5, Inf) sit in a bigint column: only integers get a leaf.
    const integral = postgres ? sql`true` : sql`typeof(telegram_id) = 'integer'`;
    const { rows } = await sql<{ giveaway_id: number; telegram_id: number }>`
      select giveaway_id, telegram_id from participants
      where salt is null and ${integral} and telegram_id >= 1 and telegram_id <= ${Number.MAX_SAFE_INTEGER}
      limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const salt = randomBytes(SALT_BYTES);
      const leaf = entrantLeafHex(salt, Number(row.telegram_id));
      await sql`update participants set salt = ${salt.toString('hex')}, leaf_hash = ${leaf}
        where giveaway_id = ${row.giveaway_id} and telegram_id = ${row.telegram_id}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('seals').execute();
}
