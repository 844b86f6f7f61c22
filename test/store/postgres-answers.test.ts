import assert from 'node:assert/strict';
import { Session } from 'node:inspector/promises';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openPostgres } from '../../src/store/postgres.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';

const skip = await postgresUnavailable();

/**
 * Bytes allocated while `work` runs that outlived the young generation: still alive, or freed
 * only by a full collection (V8's sampling heap profiler, leaving out what a scavenge freed).
 */
async function survivingBytes(work: () => Promise<void>): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
    await work();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const total = (node: typeof profile.head): number =>
      node.selfSize + node.children.reduce((sum, child) => sum + total(child), 0);
    return total(profile.head);
  } finally {
    session.disconnect();
  }
}

describe('PostgreSQL answers', { skip }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: ReturnType<typeof openPostgres>;
  before(async () => {
    database = await createTestDatabase();
    store = openPostgres(database.url);
  });
  after(async () => {
    await store?.db.destroy();
    await database?.drop();
  });

  test('die young: texts read one after another are not kept past the young generation', async () => {
    const answers = 1000;
    const size = 60_000;
    let read = 0;
    const readAll = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const { rows } = await sql<{ text: string }>`select repeat('x', ${size}) as text`.execute(store.db);
        read += rows[0].text.length;
      }
    };
    // Connections, code and caches first, so that only the answers are counted.
    await readAll(20);
    read = 0;
    const kept = await survivingBytes(() => readAll(answers));
    assert.equal(read, answers * size);
    // Through pg's promise form every text was kept (81 MB counted for these 60 MB of answers);
    // answered by callback, 4–8 MB.
    assert.ok(
      kept < (answers * size) / 4,
      `${(kept / 1e6).toFixed(1)} MB of ${(read / 1e6).toFixed(1)} MB kept`,
    );
  });
});
