// The entrant's receipt, checked in the app the way the receipt page checks it (same proof core,
// same page helpers): the leaf from the entrant's id and salt, the signed ticket, the inclusion
// proof against the signed seal, the seal's timestamps, the log, and once drawn the outcome
// re-run here. Each group of checks is handed to `show` as soon as it is done, so the entrant
// sees them pass one after another. No DOM here: the view decides how a check looks.

import { sha256 } from '@noble/hashes/sha2.js';
import type { PublicGiveaway } from '../../giveaways/results/public-giveaway.ts';
import { entrantAfterAmendments } from '../../proof/amendment-history.ts';
import type { AmendmentReason } from '../../proof/amendments.ts';
import { entrantLeafHash } from '../../proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../proof/hex.ts';
import { ticketChecks } from '../../proof/receipt-checks.ts';
import { isRecord } from '../../proof/report.ts';
import type { SealedPlace, Ticket } from '../../proof/v2-types.ts';
import { fetchJson, fetchJsonOr404, type ShownCheck, shownCheck } from '../check-list.ts';
import { line, noteLine } from '../check-notes.ts';
import { pageSealLogChecks } from '../log-page-check.ts';
import { checkedAmendments, relayRecordChecks, verifyPlace } from '../receipt-verification.ts';
import { chainsFor } from '../relay-fetch.ts';

/**
 * What the entrant reads first, as a catalogue key and its values: a value that is itself a Said
 * is said in place, a `reason-…` value is the reason's words, and `time` is an instant.
 */
export interface Said {
  key: string;
  vars?: Record<string, string | number | Said>;
  won?: boolean;
  /** The winner position the entrant holds now, when they won (for Claim). */
  position?: number;
}

export interface ReceiptResult {
  outcome: Said;
  place?: { index: number; count: number };
  leaf: string;
  /** The amendments, in sequence, as the certificate carries them. */
  amendments: { position: number; reserve: number; reason: AmendmentReason }[];
}

const KEYS_URL = '/.well-known/tyche-keys.json';

/** Checks one entry; `show` receives the checks group by group, as each is done. */
export async function checkReceipt(
  entry: { public_id: string; salt: string },
  telegramId: number,
  show: (checks: ShownCheck[]) => void,
): Promise<ReceiptResult> {
  const leaf = toHex(entrantLeafHash(fromHex(entry.salt), telegramId, sha256));
  show([line('ok', 'leafLabel', 'leafComputed', { leaf })]);
  const base = `/g/${encodeURIComponent(entry.public_id)}`;
  const [g, keys, ticket] = (await Promise.all([
    fetchJson(`${base}.json`),
    fetchJson(KEYS_URL),
    fetchJsonOr404(`${base}/ticket/${leaf}`),
  ])) as [PublicGiveaway, unknown, Ticket | undefined];
  const result: ReceiptResult = { leaf, outcome: { key: 'app-outcome-open' }, amendments: [] };
  if (ticket === undefined) {
    show([line('bad', 'ticketLabel', 'noEntry')]);
    return { ...result, outcome: { key: 'app-outcome-missing' } };
  }
  show(ticketChecks(ticket, { publicId: g.public_id, leafHash: leaf }, keys, sha256).map(shownCheck));

  if (g.draw_mode === 'instant') return { ...result, outcome: await instantOutcome(g, telegramId) };
  const seal = g.seal;
  if (!seal) {
    show([noteLine('sealedListLabel', 'notSealed')]);
    return result;
  }
  const [proof, relayChains] = await Promise.all([
    fetchJsonOr404(`${base}/proof/${leaf}`) as Promise<SealedPlace | undefined>,
    chainsFor(g.drand.relay, seal.beacon.chain_hash),
  ]);
  if (proof === undefined) {
    show([line('bad', 'proofLabel', 'notInList')]);
    return { ...result, outcome: { key: 'app-outcome-missing' } };
  }
  const { certificate, report } = await verifyPlace({
    g,
    seal,
    keys,
    chains: relayChains.chains,
    telegramId,
    salt: entry.salt,
    leaf,
    proof,
  });
  show([...report.checks.map(shownCheck), ...relayChains.notes]);
  if (certificate !== undefined) show(await relayRecordChecks(g, certificate, keys, relayChains.chains));
  show(await pageSealLogChecks(g, seal, certificate, keys, report.outside));

  const placed = report.checks.some((c) => c.id === 'receipt-proof' && c.ok);
  const out: ReceiptResult = {
    ...result,
    place: placed ? { index: proof.index, count: proof.count } : undefined,
  };
  out.outcome = {
    key: 'app-outcome-waiting',
    vars: { round: seal.beacon.round, time: seal.beacon.round_at },
  };
  if (!report.outcome || !report.valid) return out;
  const winnersDrawn = Math.min(seal.giveaway.winners_count, seal.entrants.count);
  const { position, reserve } = report.outcome;
  if (position === undefined) out.outcome = { key: 'app-outcome-lost' };
  else if (reserve) {
    out.outcome = { key: 'app-outcome-reserve', vars: { reserve: position - winnersDrawn, position } };
  } else out.outcome = { key: 'app-outcome-won', vars: { position }, won: true, position };
  if (certificate !== undefined) {
    const amended = amendedOutcome(certificate, keys, leaf, show);
    out.amendments = amended.amendments;
    if (amended.outcome) out.outcome = amended.outcome;
  }
  return out;
}

/** The amendments, checked, and who holds this entrant's place after them (CONTRACT §14). */
function amendedOutcome(certificate: unknown, keys: unknown, leaf: string, show: (c: ShownCheck[]) => void) {
  const { checks, amendments, signed } = checkedAmendments(certificate, keys);
  const listed = amendments
    .filter(isRecord)
    .map((a) => ({ position: a.position, reserve: a.by?.reserve_position, reason: a.reason }));
  if (amendments.length === 0) return { amendments: listed, outcome: undefined };
  show(checks);
  const change = signed ? entrantAfterAmendments(signed, amendments, leaf) : null;
  let outcome: Said | undefined;
  if (change?.promoted) {
    const { now, promoted } = change;
    outcome = {
      key: 'app-outcome-promoted',
      vars: { position: now.position, reason: `reason-${promoted.reasonCode}` },
      won: true,
      position: now.position,
    };
  } else if (change?.replaced) {
    const { replaced } = change;
    outcome = {
      key: 'app-outcome-demoted',
      vars: { position: replaced.position, reason: `reason-${replaced.reasonCode}` },
    };
  }
  return { amendments: listed, outcome };
}

async function instantOutcome(g: PublicGiveaway, telegramId: number): Promise<Said> {
  if (g.status !== 'completed' || !g.certificate_id) {
    return { key: 'app-outcome-instant', vars: { said: { key: 'app-outcome-open' } } };
  }
  const cert = await fetchJson(`/verify/${encodeURIComponent(g.certificate_id)}.json`);
  const winners =
    isRecord(cert) && Array.isArray(cert.winners) ? (cert.winners as Record<string, unknown>[]) : [];
  const mine = winners.find((w) => w.telegram_id === telegramId);
  return mine
    ? {
        key: 'app-outcome-instant',
        vars: { said: { key: 'app-outcome-instant-won', vars: { position: Number(mine.position) } } },
        won: true,
        position: Number(mine.position),
      }
    : { key: 'app-outcome-instant', vars: { said: { key: 'app-outcome-instant-lost' } } };
}
