import type { Kysely } from 'kysely';
import { isCertificateDigest } from '../proof/certificate-entry.ts';
import type { LogEntryKind } from '../proof/log-entry.ts';
import { isRecord } from '../proof/report.ts';
import type { Database } from '../store/schema.ts';
import { createOwnerEntryRepository } from './owner-entry.repository.ts';

/** The kinds of entry an owner's record reads (CONTRACT §14 "GET /o/{owner}"). */
const OWNER_KINDS: readonly string[] = ['seal', 'certificate', 'amendment'];

const decoder = new TextDecoder('utf-8', { fatal: true });

type About = { owner: string; giveaway: string } | { giveaway: string };

/**
 * Who an entry is about, from its leaf data alone: the owner a seal or a whole v2 certificate
 * names (the seal's `giveaway.owner`), with the giveaway; or, for an entry that names only its
 * giveaway — an amendment, or a certificate logged as its digest — the giveaway, whose owners are
 * those of its seals in the log. Null for anything else (a v1 certificate names no owner).
 */
export function ownerOfEntry(kind: string, leafData: Uint8Array): About | null {
  if (!OWNER_KINDS.includes(kind)) return null;
  const obj = jsonObjectOf(leafData);
  if (obj === null) return null;
  if (kind === 'seal') return ownerOfSeal(obj);
  if (kind === 'amendment') return giveawayNamed(obj.giveaway);
  if (!isCertificateDigest(obj)) return ownerOfSeal(obj.seal);
  return obj.algorithm === 'tyche-draw-v2' ? giveawayNamed(obj.public_id) : null;
}

function jsonObjectOf(bytes: Uint8Array): Record<string, unknown> | null {
  try {
    const obj: unknown = JSON.parse(decoder.decode(bytes));
    return isRecord(obj) ? obj : null;
  } catch {
    return null;
  }
}

const giveawayNamed = (giveaway: unknown): About | null =>
  typeof giveaway === 'string' ? { giveaway } : null;

/** The owner pseudonym and giveaway a seal names; both must be non-empty. */
function ownerOfSeal(seal: unknown): About | null {
  if (!isRecord(seal) || !isRecord(seal.giveaway)) return null;
  const { owner, public_id: giveaway } = seal.giveaway;
  if (typeof owner !== 'string' || typeof giveaway !== 'string') return null;
  return owner !== '' && giveaway !== '' ? { owner, giveaway } : null;
}

/**
 * The index from owner pseudonyms to their log entries (migration 018): written in the append's
 * transaction from the entry's own leaf data, read by the organizer's record. An entry that names
 * only its giveaway is filed under the owners of that giveaway's seals already in the log (one,
 * unless the log holds a forgery).
 */
export function createOwnerEntries(db: Kysely<Database>) {
  const index = createOwnerEntryRepository(db);
  return {
    /** Files the entry at `idx`, as logged, under the owner(s) it is about, in the caller's transaction. */
    async record(
      trx: Kysely<Database>,
      idx: number,
      kind: LogEntryKind,
      leafData: Uint8Array,
    ): Promise<void> {
      const about = ownerOfEntry(kind, leafData);
      if (about === null) return;
      const inTransaction = createOwnerEntryRepository(trx);
      const owners = 'owner' in about ? [about.owner] : await inTransaction.sealOwnersOf(about.giveaway);
      if (owners.length === 0) return;
      await inTransaction.insert(owners.map((owner) => ({ owner, idx, kind, giveaway: about.giveaway })));
    },

    versionOf: index.versionOf,
    entriesOf: index.entriesOf,
  };
}
