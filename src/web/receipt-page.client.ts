// The receipt page's script (bundled for the browser). The receipt code is read from the address
// fragment and never leaves this browser: only the leaf hash computed from it is asked about.
// Everything is checked with proof/verifier.ts against the signed seal and published keys; once the
// committed round is public the outcome is drawn here, from the certificate or, while the server
// has not published it, from the round read from the relay.

import { sha256 } from '@noble/hashes/sha2.js';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { entrantAfterAmendments, entrantName } from '../proof/amendment-history.ts';
import { entrantLeafHash } from '../proof/entrant-leaf.ts';
import { fromHex, toHex } from '../proof/hex.ts';
import {
  parseReceiptCode,
  type ReceiptCode,
  receiptDocument,
  ticketChecks,
} from '../proof/receipt-checks.ts';
import type { Outcome } from '../proof/receipt-outcome.ts';
import { isRecord } from '../proof/report.ts';
import type { Receipt, SealedPlace, Ticket } from '../proof/v2-types.ts';
import {
  fetchJson,
  fetchJsonOr404,
  fillTimestampLines,
  note,
  pageText,
  renderChecks,
  type ShownCheck,
  shownCheck,
} from './check-list.ts';
import { noteWord } from './check-notes.ts';
import { pageSealLogChecks, wireEvidenceSettings } from './log-page-check.ts';
import { RECEIPT_TEXT_KEYS, type ReceiptTextName } from './receipt-text.ts';
import { drawTree, pathLevels } from './receipt-tree.ts';
import { checkedAmendments, relayRecordChecks, verifyPlace } from './receipt-verification.ts';
import { chainsFor } from './relay-fetch.ts';

const text = pageText(
  Object.fromEntries(Object.entries(RECEIPT_TEXT_KEYS).map(([name, entry]) => [name, entry.en])) as Record<
    ReceiptTextName,
    string
  >,
);

const $ = (id: string) => document.getElementById(id)!;
const section = $('receipt');
const data = section.dataset as { publicId: string; giveawayUrl: string; keysUrl: string; base: string };
let saved: Receipt | undefined;

const utc = (iso: string | null | undefined) =>
  iso ? `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC` : '';

function show(id: string, text: string, className?: string): void {
  const el = $(id);
  el.textContent = text;
  el.hidden = text === '';
  if (className !== undefined) el.className = className;
}

function facts(rows: [string, string][]): void {
  const dl = $('receipt-facts');
  dl.replaceChildren(
    ...rows.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      if (/^[0-9a-f]{64}$/.test(value)) dd.className = 'mono';
      return [dt, dd];
    }),
  );
  dl.hidden = rows.length === 0;
  $('receipt-facts-heading').hidden = rows.length === 0;
}

interface Verdict {
  checks: ShownCheck[];
  /** What the entrant should read first when every check passed. */
  summary: string;
  /** Whether the entrant won: only then is the box green; "not drawn" and "not yet" stay neutral. */
  won?: boolean;
}

function finish(v: Verdict): void {
  renderChecks($('receipt-checks'), v.checks);
  $('receipt-checks-heading').hidden = v.checks.length === 0;
  const counted = v.checks.filter((c) => c.state !== 'note');
  const failed = counted.filter((c) => c.state === 'bad').length;
  $('receipt-summary').className = failed > 0 ? 'summary bad' : v.won ? 'summary ok' : 'summary neutral';
  const warned = counted.filter((c) => c.state === 'warn');
  const warnings = warned.map((c) => ` ${text('warning')}: ${c.label}: ${c.detail}.`).join('');
  // The checks' verdict is green when they pass; the box around it is green only for a win.
  if (failed === 0) show('receipt-status', `${v.summary}${warnings}`, 'verdict ok');
  else {
    const names = counted.filter((c) => c.state === 'bad').map((c) => c.label);
    show(
      'receipt-status',
      text('failed', { failed, total: counted.length, names: names.join(', ') }),
      'verdict bad',
    );
  }
}

/** The certificate's amendments, checked here, and what they changed for this entrant (CONTRACT §14). */
function amendedStanding(certificate: unknown, keys: unknown, leaf: string) {
  const { checks, amendments, signed } = checkedAmendments(certificate, keys);
  return {
    checks,
    change: signed ? (entrantAfterAmendments(signed, amendments, leaf) ?? undefined) : undefined,
  };
}

async function instantOutcome(g: PublicGiveaway, code: ReceiptCode): Promise<string> {
  const then = text('instant');
  if (g.status !== 'completed' || !g.certificate_id) return text('instantPending', { then });
  const cert = await fetchJson(`/verify/${encodeURIComponent(g.certificate_id)}.json`);
  const winners =
    isRecord(cert) && Array.isArray(cert.winners) ? (cert.winners as Record<string, unknown>[]) : [];
  const mine = winners.find((w) => w.telegram_id === code.telegramId);
  return mine
    ? text('instantWon', { position: String(mine.position), then })
    : text('instantNotWon', { then });
}

async function check(code: ReceiptCode): Promise<void> {
  const leaf = toHex(entrantLeafHash(fromHex(code.salt), code.telegramId, sha256));
  facts([
    [text('telegramId'), String(code.telegramId)],
    [text('leafHash'), leaf],
  ]);
  const [g, keys, ticket] = (await Promise.all([
    fetchJson(data.giveawayUrl),
    fetchJson(data.keysUrl),
    fetchJsonOr404(`${data.base}/ticket/${leaf}`),
  ])) as [PublicGiveaway, unknown, Ticket | undefined];
  if (ticket === undefined) {
    return finish({
      checks: [
        {
          label: text('ticketLabel'),
          state: 'bad',
          detail: text('noTicket'),
        },
      ],
      summary: '',
    });
  }
  const checks: ShownCheck[] = ticketChecks(
    ticket,
    { publicId: g.public_id, leafHash: leaf },
    keys,
    sha256,
  ).map(shownCheck);
  saved = receiptDocument({ publicId: g.public_id, receiptUrl: g.receipt_url, code, leafHash: leaf, ticket });
  $('receipt-save').hidden = false;

  if (g.draw_mode === 'instant') return finish({ checks, summary: await instantOutcome(g, code) });
  const seal = g.seal;
  if (!seal) {
    const closes = g.ends_at ? text('closesAt', { at: utc(g.ends_at) }) : text('closesBySeal');
    return finish({
      checks: [...checks, note(text('sealedListLabel'), text('notSealedNote'))],
      summary: text('notSealed', { closes }),
    });
  }

  const [proof, relayChains] = await Promise.all([
    fetchJsonOr404(`${data.base}/proof/${leaf}`) as Promise<SealedPlace | undefined>,
    chainsFor(g.drand.relay, seal.beacon.chain_hash),
  ]);
  if (proof === undefined) {
    return finish({
      checks: [
        ...checks,
        {
          label: noteWord('proofLabel'),
          state: 'bad',
          detail: text('missing', { count: seal.entrants.count }),
        },
      ],
      summary: '',
    });
  }
  saved = receiptDocument({
    publicId: g.public_id,
    receiptUrl: g.receipt_url,
    code,
    leafHash: leaf,
    ticket,
    proof,
    seal,
    sealTimestamps: g.seal_timestamps,
  });
  const { certificate, round, report } = await verifyPlace({
    g,
    seal,
    keys,
    chains: relayChains.chains,
    telegramId: code.telegramId,
    salt: code.salt,
    leaf,
    proof,
  });
  fillTimestampLines(report.timestamps);
  checks.push(...report.checks.map(shownCheck), ...relayChains.notes, ...(round?.notes ?? []));
  if (certificate !== undefined)
    checks.push(...(await relayRecordChecks(g, certificate, keys, relayChains.chains)));
  checks.push(...(await pageSealLogChecks(g, seal, certificate, keys, report.outside)));

  const placed = report.checks.some((c) => c.id === 'receipt-proof' && c.ok);
  // One number for people, 1-based; the 0-based index only among the technical facts below.
  if (placed) {
    show('receipt-place', text('place', { place: proof.index + 1, count: proof.count }));
    showTree(leaf, proof);
  }
  facts([
    [text('telegramId'), String(code.telegramId)],
    [text('leafHash'), leaf],
    [text('index'), String(proof.index)],
    [text('seal'), seal.seal_id],
    [text('sealHash'), seal.hash],
    [text('round'), text('roundValue', { round: seal.beacon.round, at: utc(seal.beacon.round_at) })],
  ]);
  let won = false;
  let summary = text('inList', { round: seal.beacon.round, at: utc(seal.beacon.round_at) });
  const amended = certificate === undefined ? undefined : amendedStanding(certificate, keys, leaf);
  if (amended) checks.push(...amended.checks);
  if (report.outcome && report.valid) {
    const winnersDrawn = Math.min(seal.giveaway.winners_count, seal.entrants.count);
    const drawnOutcome = outcomeText(report.outcome, winnersDrawn);
    // Replacements after the draw decide who holds a winner's place now, once their checks pass.
    const standing = amended?.change ? amendedText(amended.change) : undefined;
    const shown = standing ?? drawnOutcome;
    won = shown.won;
    show('receipt-outcome', shown.text, won ? 'outcome won' : 'outcome');
    const warned = checks.some((c) => c.state === 'warn');
    summary = text(warned ? 'noneFailed' : 'everyPassed', { round: seal.beacon.round });
    if (certificate === undefined) {
      const late = noteWord('late', { round: seal.beacon.round, at: utc(seal.beacon.round_at) });
      show('receipt-late', `${late.charAt(0).toUpperCase()}${late.slice(1)}.`);
      checks.push(note(noteWord('certificateLabel'), late));
    }
  }
  finish({ checks, summary, won });
}

/** The entrant's outcome in the page's language: won, reserve (numbered among the reserves), or not drawn. */
function outcomeText(outcome: Outcome, winnersDrawn: number): { text: string; won: boolean } {
  if (outcome.position === undefined) return { text: text('notDrawn'), won: false };
  if (outcome.reserve)
    return { text: text('reserve', { reserve: outcome.position - winnersDrawn }), won: false };
  return { text: text('won', { position: outcome.position }), won: true };
}

/** After replacements: the place the entrant holds now. */
function amendedText(change: NonNullable<ReturnType<typeof entrantAfterAmendments>>): {
  text: string;
  won: boolean;
} {
  if (!change.promoted) return { text: text('replaced'), won: false };
  const { now, promoted } = change;
  return {
    text: text('nowWinner', {
      position: now.position,
      replaced: entrantName(promoted.replaced),
      sequence: promoted.sequence,
      reason: promoted.reason,
    }),
    won: true,
  };
}

/** The entrant's path to the root, drawn once the proof has checked out. */
function showTree(leaf: string, proof: SealedPlace): void {
  const levels = pathLevels(leaf, proof.index, proof.count, proof.proof, sha256);
  drawTree($('receipt-tree-levels'), levels, {
    you: text('treeYou'),
    sibling: text('treeSibling'),
    computed: text('treeComputed'),
    root: text('treeRoot'),
  });
  $('receipt-tree').hidden = false;
}

async function start(): Promise<void> {
  saved = undefined;
  $('receipt-save').hidden = true;
  show('receipt-place', '');
  show('receipt-outcome', '');
  show('receipt-late', '');
  facts([]);
  $('receipt-tree').hidden = true;
  $('receipt-checks').replaceChildren();
  $('receipt-checks-heading').hidden = true;
  $('receipt-summary').className = 'summary';
  const parsed = location.hash.length > 1 ? parseReceiptCode(location.hash) : 'no receipt code';
  const form = $('receipt-code-form');
  if (typeof parsed === 'string') {
    form.hidden = false;
    show(
      'receipt-status',
      parsed === 'no receipt code' ? text('openLink') : text('incomplete', { problem: parsed }),
      parsed === 'no receipt code' ? '' : 'verdict bad',
    );
    return;
  }
  form.hidden = true;
  const result = $('receipt-result');
  result.setAttribute('aria-busy', 'true');
  show('receipt-status', text('checking'), '');
  try {
    await check(parsed);
  } catch (error) {
    $('receipt-summary').className = 'summary bad';
    show('receipt-status', text('couldNot', { error: (error as Error).message }), 'verdict bad');
  } finally {
    result.removeAttribute('aria-busy');
  }
}

function save(): void {
  if (!saved) return;
  const blob = new Blob([`${JSON.stringify(saved, null, 2)}\n`], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `tyche-receipt-${saved.giveaway}-${saved.telegram_id}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

$('receipt-code-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const parsed = parseReceiptCode(($('receipt-code') as HTMLInputElement).value);
  if (typeof parsed === 'string') {
    $('receipt-summary').className = 'summary bad';
    show('receipt-status', text('notACode', { problem: parsed }), 'verdict bad');
    return;
  }
  // The code goes to the fragment only, like a receipt link: still never sent to the server.
  location.hash = `${parsed.telegramId}.${parsed.salt}`;
});
$('receipt-save').addEventListener('click', save);
window.addEventListener('hashchange', () => void start());
wireEvidenceSettings(() => void start());
void start();
