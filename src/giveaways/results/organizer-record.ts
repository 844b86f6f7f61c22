import type { LogEntryRow } from '../../log/log.repository.ts';
import type { LogService } from '../../log/log.service.ts';
import { AMENDMENT_REASONS, type AmendmentReason, checkAmendments } from '../../proof/amendments.ts';
import { isCertificateDigest } from '../../proof/certificate-entry.ts';
import { readLogEntry } from '../../proof/log-entry.ts';
import { isRecord } from '../../proof/report.ts';
import { ALGORITHM_V2 } from '../../proof/v2-types.ts';
import { sha256 } from '../draw/certificate.ts';

/**
 * An organizer's public record (CONTRACT §14 "GET /o/{owner}"), computed from the transparency
 * log alone: the seals, v2 certificates and amendments filed under one owner pseudonym, read from
 * their leaf data as published — never from the service's own tables, which could say otherwise.
 */

/** What a monitor names about an owner (CONTRACT §8 "Monitoring", §14). */
export type RedFlagKind = 'multiple_seals' | 'shared_round' | 'reserve_order';

export interface RedFlag {
  flag: RedFlagKind;
  /** The giveaways (public ids) it is about. */
  giveaways: string[];
  /** The log entries that show it. */
  entries: number[];
  detail: string;
}

export interface OrganizerGiveaway {
  public_id: string;
  title: string | null;
  /** Every seal the log holds for it: one, unless a red flag says otherwise. */
  seal_ids: string[];
  sealed_at: string | null;
  round: number | null;
  round_at: string | null;
  certificate_id: string | null;
  drawn_at: string | null;
  /** From the committed round's time to the draw, in seconds (milliseconds kept). */
  seconds_round_to_draw: number | null;
  replacements: number;
}

export interface OrganizerRecord {
  owner: string;
  /** How many log entries are about this owner, and the newest one's index. */
  log_entries: number;
  last_log_index: number;
  giveaways_sealed: number;
  giveaways_drawn: number;
  /** The median over drawn giveaways of seconds from the committed round to the draw; null before one. */
  median_seconds_round_to_draw: number | null;
  replacements: { total: number; by_reason: Record<AmendmentReason, number> };
  red_flags: RedFlag[];
  /** Newest seal first. */
  giveaways: OrganizerGiveaway[];
}

interface SealSeen {
  sealId: string;
  hash: string;
  index: number;
  round: number | null;
  roundAt: string | null;
  sealedAt: string | null;
  title: string | null;
}

interface CertificateSeen {
  certificateId: string;
  index: number;
  hash: string;
  drawnAt: string | null;
  roundAt: string | null;
  sealId: string | null;
  sealHash: string | null;
  /** The certificate as logged; null for one logged as its digest (over 64 KiB), which lists no reserves. */
  object: Record<string, unknown> | null;
}

interface AmendmentSeen {
  index: number;
  object: Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (Number.isSafeInteger(v) ? (v as number) : null);
const pushTo = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);

/** The median of `values`, or null when there is none: the middle one, or the mean of the two middle ones. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return Math.round(value * 1000) / 1000;
}

function secondsBetween(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** What the log says of one owner: its entries grouped by giveaway, each read from its leaf data. */
function readEntries(owner: string, entries: readonly LogEntryRow[]) {
  const seals = new Map<string, SealSeen[]>();
  const certificates = new Map<string, CertificateSeen[]>();
  const amendments = new Map<string, AmendmentSeen[]>();
  const giveawaysOf = (seal: Record<string, unknown>) => (isRecord(seal.giveaway) ? seal.giveaway : {});
  for (const entry of entries) {
    const read = readLogEntry(entry.leafData, entry.kind);
    // A broken entry is `tyche log verify`'s finding; the record counts what the log shows readably.
    if (!read.ok) continue;
    const obj = read.object;
    if (entry.kind === 'amendment') {
      const giveaway = str(obj.giveaway);
      if (giveaway !== null) pushTo(amendments, giveaway, { index: entry.index, object: obj });
      continue;
    }
    if (isCertificateDigest(obj)) {
      // A long certificate is logged as its digest (CONTRACT §16): it names its giveaway and seal,
      // not its owner, and is filed under the owner of that giveaway's seal (checked below).
      const publicId = str(obj.public_id);
      if (publicId === null || obj.algorithm !== ALGORITHM_V2) continue;
      const sealRef = isRecord(obj.seal) ? obj.seal : {};
      pushTo(certificates, publicId, {
        certificateId: String(obj.certificate_id),
        index: entry.index,
        hash: String(obj.certificate_hash),
        drawnAt: str(obj.drawn_at),
        roundAt: null,
        sealId: str(sealRef.seal_id),
        sealHash: str(sealRef.hash),
        object: null,
      });
      continue;
    }
    const seal = entry.kind === 'seal' ? obj : isRecord(obj.seal) ? obj.seal : null;
    if (seal === null) continue;
    const g = giveawaysOf(seal);
    const publicId = str(g.public_id);
    // The index files an entry under the owner its seal names; anything else is not this owner's.
    if (publicId === null || g.owner !== owner) continue;
    const beacon = isRecord(seal.beacon) ? seal.beacon : {};
    if (entry.kind === 'seal') {
      pushTo(seals, publicId, {
        sealId: String(seal.seal_id),
        hash: String(seal.hash),
        index: entry.index,
        round: num(beacon.round),
        roundAt: str(beacon.round_at),
        sealedAt: str(seal.sealed_at),
        title: str(g.title),
      });
    } else {
      pushTo(certificates, publicId, {
        certificateId: String(obj.certificate_id),
        index: entry.index,
        hash: String(obj.hash),
        drawnAt: str(obj.drawn_at),
        roundAt: str(beacon.round_at),
        sealId: str(seal.seal_id),
        sealHash: str(seal.hash),
        object: obj,
      });
    }
  }
  for (const [id, list] of certificates) {
    const sealed = seals.get(id) ?? [];
    // What names only its giveaway is this owner's when one of this owner's seals is of that giveaway.
    const own = list.filter((c) => c.object !== null || sealed.length > 0);
    if (own.length === 0) certificates.delete(id);
    else certificates.set(id, own);
    for (const c of own) c.roundAt ??= sealed.find((s) => s.hash === c.sealHash)?.roundAt ?? null;
  }
  for (const id of amendments.keys()) if (!seals.has(id) && !certificates.has(id)) amendments.delete(id);
  return { seals, certificates, amendments };
}

type Read = ReturnType<typeof readEntries>;

function multipleSeals({ seals, certificates }: Read): RedFlag[] {
  const flags: RedFlag[] = [];
  for (const id of new Set([...seals.keys(), ...certificates.keys()])) {
    // A seal is told apart by its hash: one re-made under the same seal_id is another seal.
    const byHash = new Map<string, { sealId: string; entries: number[] }>();
    const see = (hash: string, sealId: string, index: number) => {
      const seen = byHash.get(hash) ?? { sealId, entries: [] };
      seen.entries.push(index);
      byHash.set(hash, seen);
    };
    for (const s of seals.get(id) ?? []) see(s.hash, s.sealId, s.index);
    // A certificate drawn from a seal the log does not hold as a seal entry shows one more seal.
    for (const c of certificates.get(id) ?? []) {
      if (c.sealHash !== null && !byHash.has(c.sealHash)) see(c.sealHash, c.sealId ?? '?', c.index);
    }
    if (byHash.size < 2) continue;
    const named = [...byHash].map(
      ([hash, s]) => `${s.sealId} (hash ${hash.slice(0, 16)}…, entry ${s.entries.join(', ')})`,
    );
    flags.push({
      flag: 'multiple_seals',
      giveaways: [id],
      entries: [...byHash.values()].flatMap((s) => s.entries).sort((a, b) => a - b),
      detail: `giveaway ${id} has ${byHash.size} seals: ${named.join(', ')}; a giveaway has at most one seal, ever`,
    });
  }
  return flags;
}

function sharedRounds({ seals }: Read): RedFlag[] {
  const byRound = new Map<number, { id: string; index: number }[]>();
  for (const [id, list] of seals)
    for (const s of list) if (s.round !== null) pushTo(byRound, s.round, { id, index: s.index });
  const flags: RedFlag[] = [];
  for (const [round, sightings] of [...byRound].sort((a, b) => a[0] - b[0])) {
    const ids = [...new Set(sightings.map((s) => s.id))];
    if (ids.length < 2) continue;
    flags.push({
      flag: 'shared_round',
      giveaways: ids,
      entries: sightings.map((s) => s.index),
      detail: `giveaways ${ids.join(', ')} were sealed on the same drand round ${round}: one owner's copies of a draw on one round could be compared and the best kept`,
    });
  }
  return flags;
}

/** Each substitute that was not the next unused reserve, by the rule every verifier runs (proof/amendments.ts). */
function reserveOrder({ certificates, amendments }: Read): RedFlag[] {
  const flags: RedFlag[] = [];
  for (const [id, list] of amendments) {
    const byCertificate = new Map<string, AmendmentSeen[]>();
    for (const a of list) pushTo(byCertificate, String(a.object.certificate_hash), a);
    for (const [hash, chain] of byCertificate) {
      // A certificate logged as its digest lists no reserves: `tyche verify` checks its amendments.
      const certificate = (certificates.get(id) ?? []).find((c) => c.hash === hash);
      if (!certificate?.object) continue;
      // Signatures are `tyche log verify`'s to judge against the keys the log announced.
      const verdict = checkAmendments({
        certificate: certificate.object,
        amendments: chain.map((a) => a.object),
        keys: {},
        sha256,
      });
      for (const failure of verdict.failures.filter((f) => f.check === 'amendment-reserve')) {
        const a = chain[failure.at - 1];
        flags.push({
          flag: 'reserve_order',
          giveaways: [id],
          entries: [a.index],
          detail: `giveaway ${id}, amendment ${String(a.object.amendment_id)} (entry ${a.index}): ${failure.detail}`,
        });
      }
    }
  }
  return flags;
}

/** The record of `owner` from its log entries (CONTRACT §14). */
export function organizerRecordOf(owner: string, entries: readonly LogEntryRow[]): OrganizerRecord {
  const read = readEntries(owner, entries);
  const { seals, certificates, amendments } = read;
  const byReason = Object.fromEntries(AMENDMENT_REASONS.map((r) => [r, 0])) as Record<
    AmendmentReason,
    number
  >;
  let total = 0;
  for (const list of amendments.values()) {
    for (const { object } of list) {
      total++;
      if (AMENDMENT_REASONS.includes(object.reason as AmendmentReason))
        byReason[object.reason as AmendmentReason]++;
    }
  }
  const giveaways: OrganizerGiveaway[] = [...new Set([...seals.keys(), ...certificates.keys()])].map((id) => {
    const seal = seals.get(id)?.[0];
    const certificate = certificates.get(id)?.[0];
    const embedded = certificate?.object && isRecord(certificate.object.seal) ? certificate.object.seal : {};
    const g = isRecord(embedded.giveaway) ? embedded.giveaway : {};
    const roundAt = seal?.roundAt ?? certificate?.roundAt ?? null;
    return {
      public_id: id,
      title: seal?.title ?? str(g.title),
      seal_ids: (seals.get(id) ?? []).map((s) => s.sealId),
      sealed_at: seal?.sealedAt ?? str(embedded.sealed_at),
      round: seal?.round ?? (isRecord(embedded.beacon) ? num(embedded.beacon.round) : null),
      round_at: roundAt,
      certificate_id: certificate?.certificateId ?? null,
      drawn_at: certificate?.drawnAt ?? null,
      seconds_round_to_draw: certificate ? secondsBetween(certificate.roundAt, certificate.drawnAt) : null,
      replacements: amendments.get(id)?.length ?? 0,
    };
  });
  const first = (g: OrganizerGiveaway) =>
    Math.min(
      ...[...(seals.get(g.public_id) ?? []), ...(certificates.get(g.public_id) ?? [])].map((e) => e.index),
    );
  giveaways.sort((a, b) => first(b) - first(a));
  const drawn = giveaways.filter((g) => g.certificate_id !== null);
  return {
    owner,
    log_entries: entries.length,
    last_log_index: entries.at(-1)?.index ?? -1,
    giveaways_sealed: giveaways.length,
    giveaways_drawn: drawn.length,
    median_seconds_round_to_draw: median(
      drawn.map((g) => g.seconds_round_to_draw).filter((s): s is number => s !== null),
    ),
    replacements: { total, by_reason: byReason },
    red_flags: [...multipleSeals(read), ...sharedRounds(read), ...reserveOrder(read)],
    giveaways,
  };
}

/** Organizers' records for the public pages: the version to cache by, and the record itself. */
export function createOrganizerRecords(deps: { log: Pick<LogService, 'ownerVersion' | 'ownerEntries'> }) {
  return {
    /** Changes whenever an entry about the owner is appended; `count` 0: the log knows no such owner. */
    version: (owner: string) => deps.log.ownerVersion(owner),

    async record(owner: string): Promise<OrganizerRecord | undefined> {
      const entries = await deps.log.ownerEntries(owner);
      return entries.length === 0 ? undefined : organizerRecordOf(owner, entries);
    },
  };
}

export type OrganizerRecords = ReturnType<typeof createOrganizerRecords>;
