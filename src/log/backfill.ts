import type { Kysely } from 'kysely';
import { loggedLeafData } from '../proof/log-entry.ts';
import type { Database } from '../store/schema.ts';
import { createBackfillRepository } from './backfill.repository.ts';
import { appendKeyEntry, type KeyRecord } from './key-entries.ts';
import { readLogKey } from './log-key.ts';
import { createTransparencyLog } from './transparency-log.ts';

type Event =
  | { at: number; order: 0 | 2; key: KeyRecord }
  | { at: number; order: 1; kind: 'seal' | 'certificate'; id: string; body: string };

/**
 * Puts everything signed before the log existed into it, once: every signing key's announcement,
 * every seal and certificate, and every retirement, in the order they happened (at one instant,
 * an announcement before what it signs, a retirement after). An object signed by a key outside
 * that key's announced life then fails every verifier, as it should. Run by migration 008, as
 * the data step the composition root gives it.
 */
export async function backfillLog(trx: Kysely<Database>): Promise<number> {
  const logKey = await readLogKey(trx);
  const log = createTransparencyLog({ db: trx });
  if ((await log.size()) > 0) return 0;
  const signed = createBackfillRepository(trx);
  const events: Event[] = [];
  for (const key of await signed.signingKeys()) {
    events.push({ at: key.created_at, order: 0, key });
    if (key.retired_at !== null) events.push({ at: key.retired_at, order: 2, key });
  }
  for (const s of await signed.seals()) {
    events.push({ at: s.createdAt, order: 1, kind: 'seal', id: s.id, body: s.body });
  }
  for (const c of await signed.certificates()) {
    events.push({ at: c.createdAt, order: 1, kind: 'certificate', id: c.id, body: c.body });
  }
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const event of events) {
    if (event.order === 1) {
      await log.append(trx, {
        kind: event.kind,
        id: event.id,
        leafData: loggedLeafData(event.kind, JSON.parse(event.body)),
        createdAt: event.at,
      });
    } else {
      await appendKeyEntry(log, trx, logKey, event.key, event.order === 2);
    }
  }
  return events.length;
}
