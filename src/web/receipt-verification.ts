// One entrant's place in a sealed list, checked in the browser: the part the receipt page and the
// Mini App share (the inclusion proof against the signed seal, the outcome from the certificate
// or the relay's round, the certificate's round record, the amendments). No DOM here: each caller
// decides how a check looks and what the entrant reads.

import { sha256 } from '@noble/hashes/sha2.js';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { amendmentsOf } from '../proof/amendment-history.ts';
import type { Amendment } from '../proof/amendments.ts';
import { splitLogAnnotations } from '../proof/log-entry.ts';
import { isRecord } from '../proof/report.ts';
import type { CertificateV2, DrandChainInfo, Seal, SealedPlace } from '../proof/v2-types.ts';
import { verifyCertificate, verifyReceipt } from '../proof/verifier.ts';
import { amendmentChecks } from '../proof/verify-amendments.ts';
import { receiptAt } from '../proof/verify-receipt.ts';
import { fetchJson, type ShownCheck, shownCheck } from './check-list.ts';
import { noteLine } from './check-notes.ts';
import { typedTsaTrust } from './log-page-check.ts';
import { relayRound } from './relay-fetch.ts';

export interface PlaceInput {
  g: PublicGiveaway;
  seal: Seal;
  keys: unknown;
  chains: DrandChainInfo[];
  telegramId: number;
  salt: string;
  leaf: string;
  proof: SealedPlace;
}

/**
 * The entrant's place checked against the seal, and, once the round is due, the outcome: from the
 * certificate when the giveaway is drawn, else from the round this browser reads from the relay.
 */
export async function verifyPlace(input: PlaceInput) {
  const { g, seal, keys, chains, proof } = input;
  const drawn = g.status === 'completed' && g.certificate_id !== null;
  const certificate: unknown = drawn
    ? await fetchJson(`/verify/${encodeURIComponent(g.certificate_id!)}.json`)
    : undefined;
  const round = drawn ? undefined : await committedRound(g, seal);
  const report = await verifyReceipt({
    receipt: receiptAt({ telegram_id: input.telegramId, salt: input.salt, leaf_hash: input.leaf }, proof),
    seal,
    keys,
    sha256,
    certificate,
    chains,
    round: round?.record,
    sealTimestamps: g.seal_timestamps,
    tsaTrust: typedTsaTrust(),
  });
  return { certificate, round, report };
}

/**
 * The committed round as the relay serves it, once its time has passed by this browser's clock;
 * a relay that does not serve it (yet) leaves the outcome to come, with a note.
 */
async function committedRound(g: PublicGiveaway, seal: Seal) {
  if (Date.now() < Date.parse(seal.beacon.round_at)) return undefined;
  const read = await relayRound(g.drand.relay, seal.beacon.chain_hash, seal.beacon.round);
  const notes =
    read.record === undefined
      ? [
          noteLine('roundLabel', 'roundUnreadable', {
            round: seal.beacon.round,
            url: read.url,
            problem: String(read.problem),
          }),
        ]
      : [];
  return { record: read.record, notes };
}

/** After the draw: the certificate's record of the round, compared with the relay's own. */
export async function relayRecordChecks(
  g: PublicGiveaway,
  certificate: unknown,
  keys: unknown,
  chains: DrandChainInfo[],
): Promise<ShownCheck[]> {
  const beacon = isRecord(certificate) && isRecord(certificate.beacon) ? certificate.beacon : {};
  const round = await relayRound(g.drand.relay, String(beacon.chain_hash), Number(beacon.round));
  if (round.record === undefined) {
    return [noteLine('relayLabel', 'relayUnread', { url: round.url, problem: String(round.problem) })];
  }
  const report = await verifyCertificate({ certificate, keys, sha256, chains, beaconRecord: round.record });
  return report.checks.filter((c) => c.id === 'beacon-record').map(shownCheck);
}

/**
 * The certificate's amendments (CONTRACT §14) and their checks; `signed` is the certificate they
 * amend, given only when there are amendments and every check passed, so that a caller reads who
 * holds a place now from a chain that verifies.
 */
export function checkedAmendments(
  certificate: unknown,
  keys: unknown,
): { checks: ShownCheck[]; amendments: Amendment[]; signed: CertificateV2 | undefined } {
  const { signed, annotations } = splitLogAnnotations(certificate);
  const checks = amendmentChecks({ certificate: signed, annotations, keys, sha256 }).map(shownCheck);
  const amendments = amendmentsOf(certificate);
  const sound = amendments.length > 0 && isRecord(signed) && !checks.some((c) => c.state === 'bad');
  return { checks, amendments, signed: sound ? (signed as unknown as CertificateV2) : undefined };
}
