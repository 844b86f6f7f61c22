import type { Kysely } from 'kysely';
import { isCertificateDigest } from '../proof/certificate-entry.ts';
import type { LogEntryKind } from '../proof/log-entry.ts';
import { isRecord } from '../proof/report.ts';
import type { Database } from '../store/schema.ts';
import type { LogEntryRow } from './log.repository.ts';

/** The kinds of entry an owner's record reads (CONTRACT §14 "GET /o/{owner}"). */
const OWNER_KINDS: readonly string[] = ['seal', 'certificate', 'amendment'];

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Who an entry is about, from its leaf data alone: the owner a seal or a whole v2 certificate
 * names (the seal's `giveaway.owner`), with the giveaway; or, for an entry that names only its
 * giveaway — an amendment, or a certificate logged as its digest — the giveaway, whose owners are
 * those of its seals in the log. Null for anything else (a v1 certificate names no owner).
 */
export function ownerOfEntry(
  kind: string,
  leafData: Uint8Array,
): { owner: string; giveaway: string } | { giveaway: string } | null {
  if (!OWNER_KINDS.includes(kind)) return null;
  let obj: unknown;
  try {
    obj = JSON.parse(decoder.decode(leafData));
  } catch {
    return null;
  }
  if (!isRecord(obj)) return null;
  if (kind === 'amendment') return typeof obj.giveaway === 'string' ? { giveaway: obj.giveaway } : null;
  if (kind === 'certificate' && isCertificateDigest(obj)) {
    const v2 = obj.algorithm === 'tyche-draw-v2' && typeof obj.public_id === 'string';
    return v2 ? { giveaway: obj.public_id as string } : null;
  }
  const seal = kind === 'seal' ? obj : isRecord(obj.seal) ? obj.seal : null;
  const g = seal && isRecord(seal.giveaway) ? seal.giveaway : null;
  if (!g || typeof g.owner !== 'string' || typeof g.public_id !== 'string') return null;
  if (g.owner === '' || g.public_id === '') return null;
  return { owner: g.owner, giveaway: g.public_id };
}

/** How far an owner's entries go: changes exactly when an entry about them is appended. */
export interface OwnerVersion {
  count: number;
  /** The newest entry's index, or -1 when there is none. */
  last: number;
}

/**
 * The index from owner pseudonyms to their log entries (migration 018): written in the append's
 * transaction from the entry's own leaf data, read by the organizer's record. An entry that names
 * only its giveaway is filed under the owners of that giveaway's seals already in the log (one,
 * unless the log holds a forgery).
 */
export function createOwnerEntries(db: Kysely<Database>) {
  return {
    /** Files the entry at `index`, as logged, under the owner(s) it is about, in the caller's transaction. */
    async record(
      trx: Kysely<Database>,
      index: number,
      kind: LogEntryKind,
      leafData: Uint8Array,
    ): Promise<void> {
      const about = ownerOfEntry(kind, leafData);
      if (about === null) return;
      let owners: string[];
      if ('owner' in about) owners = [about.owner];
      else {
        const rows = await trx
          .selectFrom('log_owner_entries')
          .select('owner')
          .distinct()
          .where('giveaway', '=', about.giveaway)
          .where('kind', '=', 'seal')
          .execute();
        owners = rows.map((r) => r.owner);
      }
      if (owners.length === 0) return;
      await trx
        .insertInto('log_owner_entries')
        .values(owners.map((owner) => ({ owner, idx: index, kind, giveaway: about.giveaway })))
        .execute();
    },

    /** How many entries are about `owner`, and the newest one: the version of their record. */
    async versionOf(owner: string): Promise<OwnerVersion> {
      const row = await db
        .selectFrom('log_owner_entries')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('idx').as('last')])
        .where('owner', '=', owner)
        .executeTakeFirst();
      const last = row?.last;
      return {
        count: Number(row?.count ?? 0),
        last: last === null || last === undefined ? -1 : Number(last),
      };
    },

    /** Every log entry about `owner`, in log order, read along the index. */
    async entriesOf(owner: string): Promise<LogEntryRow[]> {
      const rows = await db
        .selectFrom('log_owner_entries')
        .innerJoin('log_entries', 'log_entries.idx', 'log_owner_entries.idx')
        .select([
          'log_entries.idx',
          'log_entries.kind',
          'log_entries.ref_id',
          'log_entries.leaf_data',
          'log_entries.leaf_hash',
          'log_entries.created_at',
        ])
        .where('log_owner_entries.owner', '=', owner)
        .orderBy('log_entries.idx')
        .execute();
      return rows.map((r) => ({
        index: Number(r.idx),
        kind: r.kind,
        id: r.ref_id,
        leafData: new Uint8Array(r.leaf_data),
        leafHash: new Uint8Array(r.leaf_hash),
        createdAt: Number(r.created_at),
      }));
    },
  };
}
