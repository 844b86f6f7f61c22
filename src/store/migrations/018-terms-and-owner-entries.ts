import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Entries read at a time while the owner index is filled from the log. */
const BATCH = 500;

const decoder = new TextDecoder('utf-8', { fatal: true });
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A frozen copy of `ownerOfEntry` in log/owner-entries.ts as it shipped: who an entry is about,
 * from its leaf data. What this migration wrote must not change when that live code does.
 */
function ownerOfEntry(
  kind: string,
  obj: Record<string, unknown>,
): { owner: string; giveaway: string } | { giveaway: string } | null {
  if (kind === 'amendment') return typeof obj.giveaway === 'string' ? { giveaway: obj.giveaway } : null;
  if (kind === 'certificate' && obj.type === 'tyche-certificate-digest') {
    const v2 = obj.algorithm === 'tyche-draw-v2' && typeof obj.public_id === 'string';
    return v2 ? { giveaway: obj.public_id as string } : null;
  }
  const seal = kind === 'seal' ? obj : isRecord(obj.seal) ? obj.seal : null;
  const g = seal && isRecord(seal.giveaway) ? seal.giveaway : null;
  if (!g || typeof g.owner !== 'string' || typeof g.public_id !== 'string') return null;
  if (g.owner === '' || g.public_id === '') return null;
  return { owner: g.owner, giveaway: g.public_id };
}

/**
 * Rules in the commitment and the organizer's record (CONTRACT §14).
 *
 * - `giveaways.terms_sha256` and `giveaway_terms`: a giveaway's terms, exactly as given at
 *   creation, in a table of their own so that the giveaway row every join reads stays small (and
 *   webhook events do not carry 20 000 characters each); the row keeps their SHA-256, which the
 *   seal commits to. Both are written once, with the giveaway, and never changed.
 * - `log_owner_entries`: for each seal, v2 certificate and amendment in the transparency log, the
 *   owner pseudonym it is about (a seal's and a certificate's from the seal's `giveaway.owner`; an
 *   amendment's, and a certificate's logged as its digest, from the seals of the giveaway it names), so that an owner's record is computed from that
 *   owner's entries alone. The log entries themselves are not touched: they are append-only, and
 *   this index is derived from them, so it is filled here from the entries already logged.
 *   Signed results are not indexed (the record does not count them; `tyche log verify --account`
 *   lists them), nor v1 certificates, which name no owner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('giveaways').addColumn('terms_sha256', 'text').execute();
  await db.schema
    .createTable('giveaway_terms')
    .addColumn('giveaway_id', 'bigint', (c) => c.primaryKey().references('giveaways.id'))
    .addColumn('terms', 'text', (c) => c.notNull())
    .execute();

  let owners = db.schema
    .createTable('log_owner_entries')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('idx', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('giveaway', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('log_owner_entries_pkey', ['owner', 'idx']);
  // Read only by its key and the giveaway index: SQLite keeps the rows in the key.
  if (!postgres) owners = owners.modifyEnd(sql`without rowid`);
  await owners.execute();
  await db.schema
    .createIndex('log_owner_entries_giveaway')
    .on('log_owner_entries')
    .columns(['giveaway', 'owner'])
    .execute();

  const ownersOf = new Map<string, Set<string>>();
  for (let from = 0; ; ) {
    const batch = await sql<{ idx: number | string; kind: string; leaf_data: Uint8Array }>`
      select idx, kind, leaf_data from log_entries
      where idx >= ${from} and kind in ('seal', 'certificate', 'amendment')
      order by idx limit ${BATCH}`.execute(db);
    if (batch.rows.length === 0) break;
    const rows: { owner: string; idx: number; kind: string; giveaway: string }[] = [];
    for (const entry of batch.rows) {
      const idx = Number(entry.idx);
      let obj: unknown;
      try {
        obj = JSON.parse(decoder.decode(entry.leaf_data));
      } catch {
        continue;
      }
      if (!isRecord(obj)) continue;
      const about = ownerOfEntry(entry.kind, obj);
      if (about === null) continue;
      if ('owner' in about) {
        if (entry.kind === 'seal') {
          ownersOf.set(about.giveaway, (ownersOf.get(about.giveaway) ?? new Set()).add(about.owner));
        }
        rows.push({ ...about, idx, kind: entry.kind });
        continue;
      }
      // An entry that names only its giveaway belongs to the owners of that giveaway's seals.
      for (const owner of ownersOf.get(about.giveaway) ?? []) {
        rows.push({ owner, idx, kind: entry.kind, giveaway: about.giveaway });
      }
    }
    if (rows.length > 0) {
      await (db as Kysely<{ log_owner_entries: (typeof rows)[number] }>)
        .insertInto('log_owner_entries')
        .values(rows)
        .execute();
    }
    from = Number(batch.rows.at(-1)!.idx) + 1;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('log_owner_entries').execute();
  await db.schema.dropTable('giveaway_terms').execute();
  await db.schema.alterTable('giveaways').dropColumn('terms_sha256').execute();
}
