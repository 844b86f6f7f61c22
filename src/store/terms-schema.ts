/** The tables of terms and of the log's owner index (migration 018, CONTRACT §14). */

/** A giveaway's terms, exactly as given at creation; its seal commits to their SHA-256. */
export interface GiveawayTermsTable {
  giveaway_id: number;
  terms: string;
}

/**
 * Which transparency-log entries are about which owner pseudonym: a seal or certificate by the
 * owner its seal names, an amendment by the owners of the giveaway it amends. Derived from the
 * entries themselves when they are appended, so /o/{owner} reads that owner's entries alone.
 */
export interface LogOwnerEntriesTable {
  owner: string;
  idx: number;
  /** `seal`, `certificate` or `amendment`. */
  kind: string;
  /** The giveaway's public_id the entry is about. */
  giveaway: string;
}
