import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig } from '../src/config.ts';
import { createGiveawayRepository } from '../src/giveaways/core/giveaway.repository.ts';
import type { ParticipantRow } from '../src/giveaways/entrants/participant.repository.ts';
import { createParticipantRepository } from '../src/giveaways/entrants/participant.repository.ts';
import { newEntrantLeaf } from '../src/giveaways/entrants/participants.ts';
import { createServices, type Services } from '../src/services.ts';
import { openStore, type Store } from '../src/store/store.ts';

const SEED_BATCH = 50_000;

export interface Seeded {
  dataDir: string;
  key: string;
  publicId: string;
  participants: number;
  /** Rows per second of the repository's multi-row inserts, one transaction per batch. */
  seedRowsPerSecond: number;
  cleanup(): void;
}

/** Participant i (1-based): distinct ids in no particular order, ~100 joins per second. */
export function participantAt(giveawayId: number, i: number, start: number): ParticipantRow {
  // Multiplying by an odd constant modulo 2^32 is a bijection: a million distinct ids.
  const telegramId = Number((BigInt(i) * 2654435761n) % 2n ** 32n) || 2 ** 32;
  return {
    giveaway_id: giveawayId,
    telegram_id: telegramId,
    entry_number: i,
    username: `user_${i}`,
    first_name: i % 10 === 0 ? `Name, "${i}"` : `Name ${i}`,
    joined_at: start + i * 10,
    ...newEntrantLeaf(telegramId),
  };
}

async function seedGiveaway(
  store: Store,
  accountId: string,
  giveawayService: Services['giveaways'],
  count: number,
) {
  const giveaway = await giveawayService.create(accountId, {
    title: 'Benchmark',
    winners_count: 1000,
    draw_mode: 'instant',
  });
  const row = (await createGiveawayRepository(store.db).findByPublicId(giveaway.public_id))!;
  const participants = createParticipantRepository(store.db);
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let from = 1; from <= count; from += SEED_BATCH) {
    const rows: ParticipantRow[] = [];
    for (let i = from; i < Math.min(from + SEED_BATCH, count + 1); i++)
      rows.push(participantAt(row.id, i, start));
    await store.db.transaction().execute((trx) => participants.insertMany(rows, trx));
  }
  await store.db
    .updateTable('giveaways')
    .set({ participants_count: count })
    .where('id', '=', row.id)
    .execute();
  return giveaway.public_id;
}

/**
 * A fresh SQLite store with one business key and one giveaway holding `count` participants,
 * seeded through the repository (multi-row inserts, one transaction per 50 000).
 */
export async function seedSqlite(count: number): Promise<Seeded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tyche-bench-'));
  const store = openStore({ DATA_DIR: dataDir });
  try {
    await store.migrate();
    const services = createServices(
      createConfig({ DATA_DIR: dataDir, TYCHE_SOURCES: 'system', TYCHE_TSA_URLS: '' }),
      store,
    );
    const created = await services.accounts.createKey({ plan: 'business', dailyLimit: 1_000_000 });
    const started = performance.now();
    const publicId = await seedGiveaway(store, created.account_id, services.giveaways, count);
    const seconds = (performance.now() - started) / 1000;
    return {
      dataDir,
      key: created.key,
      publicId,
      participants: count,
      seedRowsPerSecond: count / seconds,
      cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  } finally {
    await store.close();
  }
}

/** Resident set size of a process in bytes (Linux /proc), or NaN elsewhere. */
export function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
