import { type Html, html, layout } from '../edge/html.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { QUICKNET } from '../proof/drand.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import { OPERATOR_TRUST_LABEL } from '../proof/report.ts';
import type { TokenVerdict } from '../proof/timestamp/timestamp-evidence.ts';
import type { Seal } from '../proof/v2-types.ts';
import { hex, logEntry, PAGE_STYLE, time } from './page-parts.ts';
import { timestampLines } from './timestamp-lines.ts';

const STATUS_TEXT: Record<PublicGiveaway['status'], string> = {
  active: 'Open for entries',
  sealing: 'Entries closed: checking the entrants before the seal',
  sealed: 'Sealed: waiting for the drand round',
  completed: 'Drawn',
};

export function chainLabel(chainHash: string): Html {
  return chainHash === QUICKNET.hash
    ? html`League of Entropy quicknet (<code class="mono">${chainHash}</code>)`
    : html`chain <code class="mono">${chainHash}</code>`;
}

/** Where anyone reads a round from the relay the server uses: the same URL the pages' scripts fetch. */
export function roundUrl(relay: string, chainHash: string, round: number): string {
  return `${relay.replace(/\/+$/, '')}/${chainHash}/public/${round}`;
}

function entriesSection(g: PublicGiveaway): Html {
  const closes = g.ends_at
    ? html`${time(g.ends_at)}`
    : html`no closing time set: entries close when the owner seals or draws the giveaway`;
  const mode =
    g.draw_mode === 'verifiable'
      ? html`Verifiable (<a href="/docs/draw-algorithm">${g.algorithm}</a>): the entrant list is sealed, then drawn from a public drand round that did not exist yet`
      : html`Instant (<a href="/docs/draw-algorithm">${g.algorithm}</a>): ${OPERATOR_TRUST_LABEL}`;
  return html`<section aria-labelledby="entries-heading"><h2 id="entries-heading">Entries</h2><dl>
<dt>Status</dt><dd><span class="badge" data-status="${g.status}">${STATUS_TEXT[g.status]}</span></dd>
<dt>Entrants</dt><dd data-entrants-count>${g.entrants_count}</dd>
<dt>Winners</dt><dd>${g.winners_count}${g.reserve_count > 0 ? html`, then ${g.reserve_count} reserve${g.reserve_count === 1 ? '' : 's'} in order` : ''}</dd>
<dt>Created (UTC)</dt><dd>${time(g.created_at)}</dd>
<dt>Entries close (UTC)</dt><dd>${closes}</dd>
<dt>Draw</dt><dd>${mode}</dd>
${conditionRows(g)}</dl></section>`;
}

const EXCLUSION_TEXT: Record<string, string> = {
  left_required_channel: 'had left a required channel when the list was sealed',
};

/** Channel conditions, and how many entrants the seal left out for not meeting them, and why. */
function conditionRows(g: PublicGiveaway): Html | string {
  if (g.conditions.length === 0 && g.excluded.length === 0) return '';
  const channels = g.conditions.map((c) => c.channel).join(', ');
  const excluded = g.excluded.map(
    (e) => html`<li data-excluded="${e.reason}">${e.count} ${EXCLUSION_TEXT[e.reason] ?? e.reason}</li>`,
  );
  return html`<dt>Entrants must be members of</dt><dd data-conditions>${channels}: checked at joining and again before the seal</dd>
${g.excluded.length > 0 ? html`<dt>Excluded at the seal</dt><dd><ul>${excluded}</ul></dd>` : ''}`;
}

/** What the page knows beyond the public giveaway: whether an outside party backs the seal's time. */
export interface SealEvidence {
  /** A witness cosigned a checkpoint holding the seal before its round (CONTRACT §8, §13). */
  sealWitnessed?: boolean;
  /** The seal's RFC 3161 tokens as this server checked them (timestamp-lines.ts); a valid one dates it before the round. */
  sealTokens?: TokenVerdict[];
}

/** Says the server could not know the winners only when someone outside the server backs the seal's time. */
function sealClaim(seal: Seal, witnessed: boolean, timestamped: boolean): Html {
  const b = seal.beacon;
  const sealed = html`The list of ${seal.entrants.count} entrants was sealed on ${time(seal.sealed_at)} and committed to drand
round ${b.round}, due on ${time(b.round_at)}.`;
  const outside = witnessed
    ? 'an outside witness saw it before the round'
    : 'a time-stamping authority outside this server dated it before the round';
  return witnessed || timestamped
    ? html`<p class="notice public" data-seal-claim="${witnessed ? 'witnessed' : 'timestamped'}">${sealed} The seal was published before that round existed, and ${outside}, so nobody — the owner or this server — could know the winners when it was made, and no entrant
can be added or removed since.</p>`
    : html`<p class="notice" data-seal-claim="operator">${sealed} The owner could not know the winners when the list was sealed, and
no entrant can be added or removed since. Warning: the seal's time rests on this server's word (no outside witness or valid timestamp yet).</p>`;
}

function sealSection(g: PublicGiveaway, seal: Seal, evidence: SealEvidence): Html {
  const b = seal.beacon;
  return html`<section aria-labelledby="seal-heading" id="seal"><h2 id="seal-heading">The seal</h2>
${sealClaim(seal, evidence.sealWitnessed === true, evidence.sealTokens?.some((t) => t.ok) === true)}
<dl>
<dt>Seal</dt><dd><code class="mono">${seal.seal_id}</code></dd>
<dt>Entrants</dt><dd>${seal.entrants.count}</dd>
<dt>Entrants root</dt><dd>${hex(seal.entrants.root)}</dd>
<dt>Sealed at (UTC)</dt><dd>${time(seal.sealed_at)}</dd>
<dt>Committed round</dt><dd>round <strong data-committed-round>${b.round}</strong> of ${chainLabel(b.chain_hash)}</dd>
<dt>Round due (UTC)</dt><dd>${time(b.round_at)} · <a href="${roundUrl(g.drand.relay, b.chain_hash, b.round)}">the round at the relay</a></dd>
<dt>Newest round at sealing</dt><dd>round ${b.after_round}, randomness ${hex(b.after_randomness)}</dd>
<dt>Owner (pseudonym)</dt><dd><code class="mono">${seal.giveaway.owner}</code></dd>
<dt>Seal hash</dt><dd>${hex(seal.hash)}</dd>
<dt>Signature</dt><dd>${seal.signature.alg} by key <a href="${KEYS_PATH}"><code>${seal.signature.kid}</code></a></dd>
<dt>Signature value</dt><dd>${hex(seal.signature.value)}</dd>
<dt>Transparency log</dt><dd>${g.log_index === null ? html`<span class="muted">not logged yet</span>` : logEntry(g, 'log_index')}</dd>
<dt>Timestamps (RFC 3161)</dt><dd>${timestampLines(g.seal_timestamps, 'seal', evidence.sealTokens)}</dd>
</dl>
<p>Keep a copy: <a href="/g/${g.public_id}.json" type="application/json">this giveaway with its signed seal (JSON)</a>.</p>
</section>`;
}

function resultSection(g: PublicGiveaway): Html | string {
  if (g.status === 'completed' && g.verify_url) {
    return html`<section aria-labelledby="result-heading"><h2 id="result-heading">Result</h2>
<p>The giveaway has been drawn. <a href="${g.verify_url}" data-certificate-link>See the winners and check the draw (certificate <code>${g.certificate_id}</code>)</a>.</p>
${g.certificate_log_index === null ? '' : html`<p>The certificate is ${logEntry({ log_index: g.certificate_log_index }, 'log_index')} (the transparency log).</p>`}
${g.draw_mode === 'instant' ? html`<p class="notice">An instant draw: ${OPERATOR_TRUST_LABEL}.</p>` : ''}</section>`;
  }
  if (g.status === 'sealing') {
    return html`<section aria-labelledby="result-heading"><h2 id="result-heading">Result</h2>
<p>Not drawn yet: entries are closed, and each entrant is being checked again against the channels this giveaway requires. Then the list is sealed by itself and committed to a future drand round; reload this page in a minute.</p></section>`;
  }
  if (g.status === 'sealed') {
    return html`<section aria-labelledby="result-heading"><h2 id="result-heading">Result</h2>
<p>Not drawn yet: the draw happens by itself once round ${g.seal?.beacon.round ?? ''} is published. Reload this page after ${g.seal ? time(g.seal.beacon.round_at) : ''}.</p></section>`;
  }
  return '';
}

function receiptSection(g: PublicGiveaway): Html {
  return html`<section aria-labelledby="receipt-heading" class="panel"><h2 id="receipt-heading">Did you enter?</h2>
<p>Your receipt link (sent when you joined) opens <a href="${g.receipt_url}">the receipt page</a>, which checks in your browser that
your entry is in the sealed list and, after the draw, whether you won. Your receipt code stays in your browser.</p></section>`;
}

export function renderGiveawayPage(g: PublicGiveaway, evidence: SealEvidence = {}): string {
  const body = html`<main>
<header><p class="eyebrow">Tyche giveaway</p><h1>${g.title}</h1>
${g.description ? html`<p class="description">${g.description}</p>` : ''}
<p class="muted">Giveaway <code>${g.public_id}</code></p></header>
${entriesSection(g)}
${g.seal ? sealSection(g, g.seal, evidence) : ''}
${resultSection(g)}
${g.draw_mode === 'verifiable' ? receiptSection(g) : ''}
</main>
<footer><p>Tyche · <a href="/docs/draw-algorithm">how the draw works</a> · <a href="${KEYS_PATH}">signing keys</a> · <a href="/g/${g.public_id}.json">JSON</a></p></footer>`;
  const head = html`<meta name="description" content="${`Giveaway ${g.public_id}: ${g.title}`}">
<link rel="alternate" type="application/json" href="/g/${g.public_id}.json">`;
  return layout({ title: `${g.title} — Tyche giveaway`, body, head, style: PAGE_STYLE });
}

export function renderGiveawayNotFoundPage(publicId: string): string {
  const body = html`<main><h1>Giveaway not found</h1>
<p>No giveaway has the id <code class="mono">${publicId}</code>. Check the address: it is the giveaway's public link.</p>
<p><a href="/docs/draw-algorithm">How Tyche draws work</a></p></main>`;
  return layout({ title: 'Giveaway not found — Tyche', body, style: PAGE_STYLE });
}
