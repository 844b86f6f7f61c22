import { type Html, html } from '../edge/html.ts';
import { amendmentsOf } from '../proof/amendment-history.ts';
import type { CertificateV2, EntrantWinner } from '../proof/v2-types.ts';
import { chainLabel, roundUrl } from './giveaway-page.ts';
import { hex, logEntry, time } from './page-parts.ts';
import { timestampLines } from './timestamp-lines.ts';
import { amendedSection } from './verify-page-amendments.ts';
import { evidenceSettings } from './verify-page-evidence.ts';

export interface CertificateV2Urls {
  page: string;
  json: string;
  pdf: string;
  keys: string;
  /** DRAND_URL: the relay the page's script reads the round from. */
  relay: string;
}

/** The RFC 3161 tokens the published certificate carries beside its signed members (CONTRACT §13). */
type Stamps = { seal_timestamps?: unknown; certificate_timestamps?: unknown };

function entrantsTable(kind: 'winner' | 'reserve', entries: EntrantWinner[], caption: string): Html {
  const rows = entries.map(
    (e) =>
      html`<tr data-${kind}-position="${e.position}" data-telegram-id="${e.telegram_id}"><td>${e.position}</td><td>${e.username ? `@${e.username}` : '—'}</td><td class="mono">${e.telegram_id}</td><td class="mono">${e.index}</td></tr>`,
  );
  return html`<div class="table-wrap"><table>
<caption>${caption}</caption>
<thead><tr><th scope="col">#</th><th scope="col">Username</th><th scope="col">Telegram ID</th><th scope="col">Canonical index</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function proofDetails(e: EntrantWinner, reserve: boolean): Html {
  const who = e.username ? `@${e.username}` : `Telegram ID ${e.telegram_id}`;
  return html`<details data-proof-position="${e.position}"><summary>${reserve ? 'Reserve' : 'Winner'} ${e.position}: ${who} — index ${e.index}</summary><dl>
<dt>Salt</dt><dd>${hex(e.salt)}</dd>
<dt>Leaf hash</dt><dd>${hex(e.leaf_hash)}</dd>
<dt>Inclusion proof</dt><dd>${
    e.proof.length === 0
      ? html`<span class="muted">empty: the list has a single entrant, whose leaf is the root</span>`
      : html`<ol class="hashes">${e.proof.map((p) => html`<li>${p}</li>`)}</ol>`
  }</dd></dl></details>`;
}

export function renderCertificateV2Body(cert: CertificateV2, urls: CertificateV2Urls): Html {
  const { seal, beacon } = cert;
  const g = seal.giveaway;
  const n = seal.entrants.count;
  const reserves = cert.reserves.length
    ? html`<h3 id="reserves-heading">Reserves</h3>${entrantsTable('reserve', cert.reserves, `${cert.reserves.length} reserves, in order, after the winners`)}`
    : '';
  return html`<main>
<header><p class="eyebrow">Tyche draw certificate · verifiable draw</p><h1>${g.title}</h1>
<p>Certificate <code>${cert.certificate_id}</code> for giveaway <a href="/g/${g.public_id}"><code>${g.public_id}</code></a>, drawn on ${time(cert.drawn_at)}.</p>
<p class="notice public">The entrant list was sealed before drand round ${beacon.round} existed, and that public round alone chose
the winners: neither the organiser nor this server could choose or predict them. Everything below can be checked from public data.</p></header>

${amendedSection(cert)}
<section aria-labelledby="winners-heading"><h2 id="winners-heading">${amendmentsOf(cert).length ? 'Winners as drawn' : 'Winners'}</h2>
${entrantsTable('winner', cert.winners, `${cert.winners.length} of ${n} entrants, in draw order`)}
${reserves}</section>

<section aria-labelledby="seal-heading"><h2 id="seal-heading">The sealed list</h2><dl>
<dt>Seal</dt><dd><code class="mono">${seal.seal_id}</code></dd>
<dt>Entrants</dt><dd>${n}</dd>
<dt>Entrants root</dt><dd>${hex(seal.entrants.root)}</dd>
<dt>Sealed at (UTC)</dt><dd>${time(seal.sealed_at)}</dd>
<dt>Committed round</dt><dd>round ${seal.beacon.round}, due ${time(seal.beacon.round_at)}</dd>
<dt>Newest round at sealing</dt><dd>round ${seal.beacon.after_round}, randomness ${hex(seal.beacon.after_randomness)}</dd>
<dt>Winners, reserves</dt><dd>${g.winners_count} winners, ${g.reserve_count} reserves requested</dd>
<dt>Owner (pseudonym)</dt><dd><code class="mono">${g.owner}</code></dd>
<dt>Seal hash</dt><dd>${hex(seal.hash)}</dd>
<dt>Seal in the transparency log</dt><dd>${logEntry(cert, 'seal_log_index')}</dd>
<dt>Seal timestamps (RFC 3161)</dt><dd>${timestampLines((cert as Stamps).seal_timestamps, 'seal')}</dd>
<dt>Seal signature</dt><dd>${seal.signature.alg} by key <a href="${urls.keys}"><code>${seal.signature.kid}</code></a>: ${hex(seal.signature.value)}</dd>
</dl></section>

<section aria-labelledby="round-heading"><h2 id="round-heading">The drand round</h2><dl>
<dt>Chain</dt><dd>${chainLabel(beacon.chain_hash)}</dd>
<dt>Round</dt><dd>${beacon.round} · <a href="${roundUrl(urls.relay, beacon.chain_hash, beacon.round)}">the round at the relay</a></dd>
<dt>Randomness</dt><dd>${hex(beacon.randomness)}</dd>
<dt>BLS signature</dt><dd>${hex(beacon.signature)}</dd>
</dl></section>

<section aria-labelledby="draw-heading"><h2 id="draw-heading">The draw</h2><dl>
<dt>Algorithm</dt><dd><a href="/docs/draw-algorithm">${cert.algorithm}</a> (public specification)</dd>
<dt>Seed</dt><dd>${hex(cert.seed)}</dd>
<dt>How the seed is made</dt><dd>SHA-256("${cert.algorithm}" ‖ 0x00 ‖ seal hash ‖ round randomness)</dd>
<dt>Drawn at (UTC)</dt><dd>${time(cert.drawn_at)}</dd>
</dl></section>

<section aria-labelledby="proofs-heading"><h2 id="proofs-heading">Each winner's place in the sealed list</h2>
<p>Each leaf hash is SHA-256(0x00 ‖ "tyche-entrant-v2" ‖ 0x00 ‖ salt ‖ Telegram ID); its proof leads from the leaf to the entrants root.</p>
${cert.winners.map((e) => proofDetails(e, false))}${cert.reserves.map((e) => proofDetails(e, true))}</section>

<section aria-labelledby="signature-heading"><h2 id="signature-heading">Certificate signature</h2><dl>
<dt>Certificate hash</dt><dd>${hex(cert.hash)}</dd>
<dt>Transparency log</dt><dd>${logEntry(cert, 'log_index')}</dd>
<dt>Certificate timestamps (RFC 3161)</dt><dd>${timestampLines((cert as Stamps).certificate_timestamps, 'certificate')}</dd>
<dt>Signature</dt><dd>${cert.signature.alg} by key <a href="${urls.keys}"><code>${cert.signature.kid}</code></a></dd>
<dt>Signature value</dt><dd>${hex(cert.signature.value)}</dd>
</dl></section>

<section id="verify" aria-labelledby="verify-heading" data-certificate-url="${urls.json}" data-keys-url="${urls.keys}" data-hash="${cert.hash}" data-relay="${urls.relay}">
<h2 id="verify-heading">Check it yourself</h2>
<p>With JavaScript on, the button below re-runs every check in your browser with the same code the server uses: the seal and its
signature, the round rules, drand round ${beacon.round}'s BLS signature — fetched again from the relay by your browser —, the seed,
every winner and reserve, each one's proof against the sealed root, and the certificate's signature.
It also checks the transparency log: a checkpoint under the log key this browser remembers for this server, that the log
only grew since your last visit, that the seal and the certificate are in it, and that their key was announced there; then
whether anyone besides this server dated the seal before the round: witnesses you trust, whose checkpoint the log must extend,
and the time-stamping authorities' tokens, checked against the roots the page carries (and any you add below).</p>
${amendmentsOf(cert).length ? html`<p>The winners were amended after the draw, so it also checks each amendment: its signature, that it is chained to the one before by hash and in sequence, that its substitute is the next unused reserve, and that it is in the transparency log.</p>` : ''}
${evidenceSettings()}
<button type="button" id="verify-button" hidden>Verify this draw</button>
<div id="verify-result" aria-live="polite"><p id="verify-status"></p><ul id="verify-checks" class="checks"></ul></div>
<p>From a terminal: <code class="mono">npx tyche verify ${urls.page}</code>, or without the repository
<code class="mono">curl -O ${urls.page.replace(/\/verify\/.*$/, '')}/tyche-verify.mjs &amp;&amp; node tyche-verify.mjs ${urls.page}</code>
(add <code class="mono">--entrants entrants.json</code> to rebuild the root from the organiser's export).</p>
<p>Downloads: <a href="${urls.json}" type="application/json">certificate (JSON)</a> · <a href="${urls.pdf}" type="application/pdf">certificate (PDF)</a></p>
</section>
</main>
<footer><p>Tyche · <a href="/g/${g.public_id}">the giveaway</a> · <a href="/docs/draw-algorithm">how the draw works</a> · <a href="${urls.keys}">signing keys</a></p></footer>`;
}
