import type { Kysely } from 'kysely';
import { leafDataOf } from '../proof/log-entry.ts';
import type { Database } from '../store/schema.ts';
import { appendKeyEntry, type KeyRecord } from './key-entries.ts';
import { ensureLogKey } from './log-key.ts';
import { createTransparencyLog } from './transparency-log.ts';

type Event =
  | { at: number; order: 0 | 2; key: KeyRecord }
  | { at: number; order: 1; kind: 'seal' | 'certificate'; id: string; body: string };

/**
 * Puts everything signed before the log existed into it, once: every signing key's announcement,
 * every seal and certificate, and every retirement, in the order they happened (at one instant,
 * an announcement before what it signs, a retirement after). An object signed by a key outside
 * that key's announced life then fails every verifier, as it should.
 */
export async function backfillLog(trx: Kysely<Database>, now: number): Promise<number> {
  const logKey = await ensureLogKey(trx, now);
  const log = createTransparencyLog({ db: trx });
  if ((await log.size()) > 0) return 0;
  const keys = await trx
    .selectFrom('signing_keys')
    .select(['kid', 'x', 'created_at', 'retired_at'])
    .execute();
  const seals = await trx.selectFrom('seals').select(['seal_id', 'body', 'created_at']).execute();
  const certificates = await trx.selectFrom('certificates').select(['id', 'body', 'created_at']).execute();
  const events: Event[] = [];
  for (const row of keys) {
    const key: KeyRecord = {
      kid: row.kid,
      x: row.x,
      created_at: Number(row.created_at),
      retired_at: row.retired_at === null ? null : Number(row.retired_at),
    };
    events.push({ at: key.created_at, order: 0, key });
    if (key.retired_at !== null) events.push({ at: key.retired_at, order: 2, key });
  }
  for (const s of seals)
    events.push({ at: Number(s.created_at), order: 1, kind: 'seal', id: s.seal_id, body: s.body });
  for (const c of certificates) {
    events.push({ at: Number(c.created_at), order: 1, kind: 'certificate', id: c.id, body: c.body });
  }
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const event of events) {
    if (event.order === 1) {
      await log.append(trx, {
        kind: event.kind,
        id: event.id,
        leafData: leafDataOf(JSON.parse(event.body)),
        createdAt: event.at,
      });
    } else {
      await appendKeyEntry(log, trx, logKey, event.key, event.order === 2);
    }
  }
  return events.length;
}
