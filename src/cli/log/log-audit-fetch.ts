import { fromBase64 } from '../../proof/hex.ts';
import { isRecord } from '../../proof/report.ts';
import { CannotCheck, fetchJson } from '../verify/verify-inputs.ts';
import type { AuditEntry } from './log-audit.ts';

/** The server's page limit (CONTRACT §8: end − start ≤ 1000). */
const PAGE = 1000;
/** Enough requests in flight to hide the round trip; more only queue behind the server's own work. */
const IN_FLIGHT = 4;

/** An entry as served, or an entry that cannot be read as one (the auditor names it). */
function entryOf(raw: unknown, expectedIndex: number): AuditEntry {
  if (!isRecord(raw)) return { index: expectedIndex, kind: '', id: '', leafData: new Uint8Array(0) };
  const leafData = typeof raw.leaf_data === 'string' ? fromBase64(raw.leaf_data) : null;
  return {
    index: Number.isSafeInteger(raw.index) ? (raw.index as number) : -1,
    kind: String(raw.kind),
    id: String(raw.id),
    leafData: leafData ?? new Uint8Array(0),
  };
}

/**
 * Loads `count` items with a few in flight and hands them over strictly in order while later
 * ones are still on the wire: order matters to the auditor (a key must be announced before it
 * signs), and the round trip is hidden all the same.
 */
export async function pipelined<T>(
  count: number,
  load: (i: number) => Promise<T>,
  onEach: (value: T, i: number) => void,
): Promise<void> {
  const pending = new Map<number, Promise<T>>();
  for (let i = 0; i < count; i++) {
    for (let ahead = i; ahead < Math.min(count, i + IN_FLIGHT); ahead++) {
      if (!pending.has(ahead)) {
        const loading = load(ahead);
        // Settled here so a failing load ahead is not an unhandled rejection before its turn.
        loading.catch(() => {});
        pending.set(ahead, loading);
      }
    }
    const value = (await pending.get(i)) as T;
    pending.delete(i);
    onEach(value, i);
  }
}

/** Every entry below `size`, in order, a page of 1000 at a time from `/log/entries`. */
export async function fetchEntries(
  server: string,
  size: number,
  onPage: (entries: AuditEntry[]) => void,
): Promise<void> {
  const load = (page: number) =>
    fetchJson(
      `${server}/log/entries?start=${page * PAGE}&end=${Math.min(size, (page + 1) * PAGE)}`,
      'log entries',
    ).then((r) => r.json);
  await pipelined(Math.ceil(size / PAGE), load, (json, page) => {
    const start = page * PAGE;
    const expected = Math.min(size, start + PAGE) - start;
    const raw = isRecord(json) && Array.isArray(json.entries) ? json.entries : [];
    if (raw.length !== expected) {
      throw new CannotCheck(`the log served ${raw.length} entries from ${start}, not ${expected}`);
    }
    onPage(raw.map((e, i) => entryOf(e, start + i)));
  });
}
