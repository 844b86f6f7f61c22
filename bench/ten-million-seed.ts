import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createConfig } from '../src/config.ts';
import { createGiveawayRepository } from '../src/giveaways/core/giveaway.repository.ts';
import {
  createParticipantRepository,
  type ParticipantRow,
} from '../src/giveaways/entrants/participant.repository.ts';
import { createServices } from '../src/services.ts';
import { openStore } from '../src/store/store.ts';
import { createTestDatabase } from '../test/helpers/postgres.ts';
import { participantAt } from './giveaways-setup.ts';

export type Dialect = 'sqlite' | 'postgres';

/** Rows per transaction: as many as the repository's bulk path takes in one call without strain. */
const SEED_BATCH = 50_000;
/** Leaves kept aside for the proof load: spread evenly over the entry order. */
const SAMPLE = 4096;
export const WINNERS = 1000;

export interface SeededStore {
  dialect: Dialect;
  /** What a `tyche serve` over this store needs in its environment. */
  env: Record<string, string>;
  key: string;
  publicId: string;
  entrants: number;
  seconds: number;
  /** Leaf hashes of entrants spread over the list, for the public proof load. */
  leaves: string[];
  cleanup(): Promise<void>;
}

/**
 * A fresh store of `dialect` with one business key and one verifiable giveaway of `entrants`,
 * written through the participant repository's bulk insert (the path every entry ends in), each
 * row with a CSPRNG salt and its leaf hash made as an entry makes them. The next batch is made
 * while the store writes the last one (on PostgreSQL the write leaves this process idle).
 */
export async function seedEntrants(dialect: Dialect, entrants: number): Promise<SeededStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tyche-bench-ten-million-'));
  const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (database) env.DATABASE_URL = database.url;
  const cleanup = async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const store = openStore({ DATA_DIR: dataDir, DATABASE_URL: env.DATABASE_URL });
  try {
    await store.migrate();
    const services = createServices(
      createConfig({ ...env, TYCHE_SOURCES: 'system', TYCHE_TSA_URLS: '' }),
      store,
    );
    const created = await services.accounts.createKey({ plan: 'business', dailyLimit: 100_000_000 });
    await services.signer.current();
    const giveaway = await services.giveaways.create(created.account_id, {
      title: 'Ten million',
      winners_count: WINNERS,
      draw_mode: 'verifiable',
    });
    const row = (await createGiveawayRepository(store.db).findByPublicId(giveaway.public_id))!;
    // The seeding connection's own page cache (the server's is untouched): with SQLite's default
    // 2 MB every row lands on index pages read back from the file, and seeding ten million takes
    // an hour on a busy machine instead of minutes.
    if (dialect === 'sqlite') await sql`pragma cache_size = -1048576`.execute(store.db);
    const participants = createParticipantRepository(store.db);
    const start = Date.parse('2026-01-01T00:00:00Z');
    const every = Math.max(1, Math.floor(entrants / SAMPLE));
    const leaves: string[] = [];
    const batch = (from: number) => {
      const rows: ParticipantRow[] = [];
      for (let i = from; i < Math.min(from + SEED_BATCH, entrants + 1); i++) {
        const p = participantAt(row.id, i, start);
        if (i % every === 0 && leaves.length < SAMPLE) leaves.push(p.leaf_hash!);
        rows.push(p);
      }
      return rows;
    };
    const started = performance.now();
    let next = batch(1);
    for (let from = 1; from <= entrants; from += SEED_BATCH) {
      const rows = next;
      const written = store.db.transaction().execute((trx) => participants.insertMany(rows, trx));
      next = from + SEED_BATCH <= entrants ? batch(from + SEED_BATCH) : [];
      await written;
      if ((from - 1 + SEED_BATCH) % 1_000_000 === 0)
        process.stderr.write(`  seeded ${((from - 1 + SEED_BATCH) / 1e6).toFixed(0)} M\n`);
    }
    await store.db
      .updateTable('giveaways')
      .set({ participants_count: entrants })
      .where('id', '=', row.id)
      .execute();
    // Autovacuum vacuums and analyzes an insert-only table that grew this much soon after (and
    // again and again while entries keep coming); the bench does not wait for it. Without the
    // visibility map it sets, the seal's index-only reads visit the table for every leaf.
    if (dialect === 'postgres') await sql`vacuum analyze participants`.execute(store.db);
    return {
      dialect,
      env,
      key: created.key,
      publicId: giveaway.public_id,
      entrants,
      seconds: (performance.now() - started) / 1000,
      leaves,
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  } finally {
    await store.close();
  }
}

/** The Telegram id of entrant i (1-based) as participantAt makes it: for the receipt load. */
export const telegramIdAt = (i: number) => Number((BigInt(i) * 2654435761n) % 2n ** 32n) || 2 ** 32;
