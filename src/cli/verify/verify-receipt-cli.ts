// `tyche verify --receipt`: one entrant's own check (CONTRACT §7.8) from a receipt URL or a
// saved receipt. The entry ticket, the leaf from the Telegram id and salt, the proof against the
// signed seal and, once the committed round is public, the draw re-run to say whether this entrant
// won — from the certificate, or from the round itself while the certificate is not published.

import { entrantLeafHash } from '../../proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../proof/hex.ts';
import { splitLogAnnotations } from '../../proof/log-entry.ts';
import type { LogCheckResult } from '../../proof/log-gather.ts';
import { parseReceiptCode, type ReceiptCode, ticketChecks } from '../../proof/receipt-checks.ts';
import { type Check, isRecord, makeCheck, report } from '../../proof/report.ts';
import { ALGORITHM_V2, type Seal, type SealedPlace } from '../../proof/v2-types.ts';
import { verifyReceipt, verifySeal } from '../../proof/verifier.ts';
import { type NamedPlace, receiptAt } from '../../proof/verify-receipt.ts';
import { UsageError } from '../command.ts';
import { addSealTime, logEvidence } from './log-checks.ts';
import { outcomeLines, readCommittedRound } from './receipt-round.ts';
import { addTermsCheck, readTermsOption } from './terms-check.ts';
import { chainHint, type NotChecked, type VerifyResult } from './verify-cli-output.ts';
import { keysSource, trimSlash, type VerifyContext } from './verify-context.ts';
import { CannotCheck, fetchJson, isUrl, loadJson, sourceOf } from './verify-inputs.ts';

const RECEIPT_PATH = /^(.*)\/g\/([^/]+)\/receipt\/?$/;

interface Located {
  server: string;
  publicId: string;
  code: ReceiptCode;
  /** What a saved receipt brings along: its ticket and its place in the sealed list. */
  saved?: Record<string, unknown>;
}

function serverOfReceiptUrl(text: unknown): { server: string; publicId: string } | undefined {
  if (typeof text !== 'string' || !isUrl(text)) return undefined;
  const url = new URL(text);
  const match = RECEIPT_PATH.exec(url.pathname);
  return match ? { server: `${url.origin}${match[1]}`, publicId: decodeURIComponent(match[2]) } : undefined;
}

async function locateReceipt(arg: string, context: VerifyContext): Promise<Located> {
  if (isUrl(arg)) {
    const at = serverOfReceiptUrl(arg);
    if (!at) throw new UsageError(`${arg} is not a receipt URL (…/g/PUBLIC_ID/receipt#<telegram_id>.<salt>)`);
    const code = parseReceiptCode(new URL(arg).hash);
    if (typeof code === 'string') throw new UsageError(`${arg}: ${code} after the # (#<telegram_id>.<salt>)`);
    return { ...at, code };
  }
  const saved = await loadJson(sourceOf(arg), 'receipt');
  if (!isRecord(saved) || typeof saved.giveaway !== 'string') {
    throw new CannotCheck(`${arg} is not a receipt: it names no giveaway`);
  }
  const code = parseReceiptCode(`${String(saved.telegram_id)}.${String(saved.salt)}`);
  if (typeof code === 'string') throw new CannotCheck(`${arg} is not a receipt: ${code}`);
  const server = serverOfReceiptUrl(saved.receipt_url)?.server ?? trimSlash(context.io.baseUrl());
  return { server, publicId: saved.giveaway, code, saved };
}

const hasPlace = (saved: Record<string, unknown> | undefined) =>
  saved !== undefined && ['index', 'count', 'root', 'proof'].every((k) => saved[k] !== undefined);

/** Reads the receipt and everything it is checked against, and runs the one verifier. */
export async function verifyReceiptFrom(arg: string, context: VerifyContext): Promise<VerifyResult> {
  const { sha256, chains } = context;
  const terms = readTermsOption(context);
  const { server, publicId, code, saved } = await locateReceipt(arg, context);
  const leafHash = toHex(entrantLeafHash(fromHex(code.salt), code.telegramId, sha256));
  const g = `${server}/g/${encodeURIComponent(publicId)}`;
  const [giveaway, keys, ticket] = await Promise.all([
    fetchJson(`${g}.json`, 'giveaway').then((r) => r.json),
    loadJson(
      keysSource(context, () => server),
      'signing keys',
    ),
    saved?.ticket !== undefined
      ? saved.ticket
      : fetchJson(`${g}/ticket/${leafHash}`, 'ticket', [404]).then((r) => r.json),
  ]);
  const checks: Check[] =
    ticket === undefined
      ? [
          makeCheck(
            'ticket',
            'Entry ticket',
            `the service has no entry with leaf hash ${leafHash}: this Telegram id and salt are not an entrant of ${publicId}`,
            '',
          ),
        ]
      : ticketChecks(ticket, { publicId, leafHash }, keys, sha256);
  const extra: Record<string, unknown> = {
    giveaway: publicId,
    leaf_hash: leafHash,
    in_sealed_list: null,
    outcome: null,
  };
  const heading = [
    `Receipt of Telegram id ${code.telegramId} in giveaway ${publicId}${isRecord(giveaway) ? `: ${JSON.stringify(giveaway.title)}` : ''}`,
    `Leaf hash ${leafHash}`,
  ];
  const notChecked: NotChecked[] = [];
  const seal = isRecord(giveaway) ? (giveaway.seal as Seal | null) : null;
  if (!seal) {
    notChecked.push({
      id: 'seal',
      label: 'Sealed list',
      detail: `not sealed yet (status ${isRecord(giveaway) ? String(giveaway.status) : 'unknown'}); check again after the seal`,
    });
    const unsealed = report(ALGORITHM_V2, 'public', checks);
    const missing = 'the giveaway is not sealed yet: no seal commits to its terms until entries close';
    addTermsCheck(unsealed, { missing }, terms, sha256, notChecked);
    return { heading, report: unsealed, notChecked, summary: [], extra };
  }

  // The place and the seal it names come together: from the saved receipt, or from the service's
  // proof answer. A receipt saved before seal_hash existed names its seal by id only.
  let place: NamedPlace | undefined;
  if (hasPlace(saved)) place = saved as unknown as NamedPlace;
  else {
    const answer = await fetchJson(`${g}/proof/${leafHash}`, 'inclusion proof', [404, 409]);
    place = answer.json as SealedPlace | undefined;
  }
  if (!place) {
    const sealReport = await verifySeal({ seal, keys, sha256, chains });
    checks.push(
      ...sealReport.checks,
      makeCheck(
        'receipt-proof',
        'In the sealed list',
        `leaf ${leafHash} is not among the ${seal.entrants?.count} sealed entrants`,
        '',
      ),
    );
    extra.in_sealed_list = false;
    notChecked.push(...chainHint(sealReport, chains.length));
    return {
      heading,
      report: report(ALGORITHM_V2, 'public', checks),
      notChecked,
      summary: ['In the sealed list: no'],
      extra,
    };
  }

  const certificateId = isRecord(giveaway) ? giveaway.certificate_id : null;
  const certificate =
    typeof certificateId === 'string'
      ? (await fetchJson(`${server}/verify/${encodeURIComponent(certificateId)}.json`, 'certificate')).json
      : undefined;
  // No certificate yet: once the round is due the verifier reads it itself and draws the outcome.
  const round =
    certificate === undefined
      ? await readCommittedRound(context, { server, publicId, giveaway }, seal, Date.now())
      : undefined;
  notChecked.push(...(round?.notChecked ?? []));
  const result = await verifyReceipt({
    receipt: receiptAt({ telegram_id: code.telegramId, salt: code.salt, leaf_hash: leafHash }, place),
    seal,
    keys,
    sha256,
    certificate,
    chains,
    round: round?.record,
    sealTimestamps: sealTimestampsOf(giveaway, saved),
    tsaTrust: context.tsaTrust,
  });
  const logs = await receiptLogChecks(server, giveaway, seal, certificate, context);
  const verdict = report(ALGORITHM_V2, 'public', [...checks, ...result.checks, ...logs.checks]);
  addTermsCheck(verdict, { seal }, terms, sha256, notChecked);
  addSealTime(verdict, seal, [...logs.outside, ...(result.outside ?? [])], context);
  notChecked.push(...chainHint(result, chains.length));
  const included = result.checks.some((c) => c.id === 'receipt-proof' && c.ok);
  extra.in_sealed_list = included;
  extra.index = place.index;
  extra.certificate_id = certificateId ?? null;
  extra.outcome = result.outcome ?? null;
  extra.outcome_from = result.outcome ? (certificate === undefined ? 'round' : 'certificate') : null;
  extra.certificate_late = certificate === undefined && round?.record !== undefined;
  const summary = [
    included
      ? `In the sealed list: yes, index ${place.index} of ${seal.entrants.count} (seal ${seal.seal_id})`
      : 'In the sealed list: not proven',
  ];
  if (included) {
    summary.push(...outcomeLines(result.outcome, seal, { certificate: certificate !== undefined, round }));
  }
  return { heading, report: verdict, notChecked, summary, extra };
}

/** The seal's tokens as the giveaway publishes them, and those a saved receipt kept, each once. */
function sealTimestampsOf(giveaway: unknown, saved: Record<string, unknown> | undefined): unknown[] {
  const lists = [isRecord(giveaway) ? giveaway.seal_timestamps : undefined, saved?.seal_timestamps];
  const all = lists.flatMap((list) => (Array.isArray(list) ? list : []));
  return all.filter((s, i) => !isRecord(s) || all.findIndex((t) => isRecord(t) && t.token === s.token) === i);
}

/**
 * The seal against the server's log (and once drawn, the certificate too, with the seal's witnesses),
 * as for a certificate: the seal's log index comes from the giveaway, the rest from the certificate.
 */
async function receiptLogChecks(
  server: string,
  giveaway: unknown,
  seal: Seal,
  certificate: unknown,
  context: VerifyContext,
): Promise<LogCheckResult> {
  const { signed, annotations } = splitLogAnnotations(certificate);
  const drawn = isRecord(signed) && 'log_index' in annotations;
  return logEvidence(context, {
    server,
    annotations: drawn
      ? annotations
      : { seal_log_index: isRecord(giveaway) ? giveaway.log_index : undefined },
    certificate: drawn ? signed : undefined,
    seal: seal as unknown as Record<string, unknown>,
  });
}
