import { type Html, html } from '../edge/html.ts';
import { amendmentsOf } from '../proof/amendment-history.ts';
import type { CertificateV2, EntrantWinner } from '../proof/v2-types.ts';
import { type FirstNames, personName } from './giveaway-results.ts';
import { organizerLink } from './organizer-link.ts';
import { type PageLocale, pageHref } from './page-language.ts';
import { hex, logEntry, time } from './page-parts.ts';
import { chainLabel, roundUrl } from './round-links.ts';
import { timeline } from './timeline.ts';
import { timestampLines } from './timestamp-lines.ts';
import { amendedSection } from './verify-page-amendments.ts';
import { evidenceSettings } from './verify-page-evidence.ts';
import { terminalHint, verifyBox } from './verify-page-top.ts';

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

/** People first: the 1-based draw position and the name; the technical index is in each proof below. */
function entrantsTable(
  kind: 'winner' | 'reserve',
  entries: EntrantWinner[],
  caption: string,
  names: FirstNames,
  l: PageLocale,
): Html {
  const { t } = l;
  const rows = entries.map(
    (e) =>
      html`<tr data-${kind}-position="${e.position}" data-telegram-id="${e.telegram_id}"><td>${e.position}</td><td>${personName(e, names, l)}</td><td class="mono">${e.telegram_id}</td></tr>`,
  );
  return html`<div class="table-wrap"><table>
<caption>${caption}</caption>
<thead><tr><th scope="col">#</th><th scope="col">${t('col-name')}</th><th scope="col">${t('col-telegram-id')}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function proofDetails(e: EntrantWinner, reserve: boolean, names: FirstNames, l: PageLocale): Html {
  const { t } = l;
  const who = personName(e, names, l);
  const label = t(reserve ? 'v-proof-reserve' : 'v-proof-winner', { position: e.position });
  return html`<details data-proof-position="${e.position}"><summary>${label}: ${who}</summary><dl>
<dt>${t('v-index')}</dt><dd><code class="mono">${e.index}</code></dd>
<dt>${t('v-salt')}</dt><dd>${hex(e.salt)}</dd>
<dt>${t('v-leaf-hash')}</dt><dd>${hex(e.leaf_hash)}</dd>
<dt>${t('v-inclusion-proof')}</dt><dd>${
    e.proof.length === 0
      ? html`<span class="muted">${t('v-proof-empty')}</span>`
      : html`<ol class="hashes">${e.proof.map((p) => html`<li>${p}</li>`)}</ol>`
  }</dd></dl></details>`;
}

export function renderCertificateV2Body(
  cert: CertificateV2,
  urls: CertificateV2Urls,
  l: PageLocale,
  names: FirstNames = new Map(),
): Html {
  const { t } = l;
  const { seal, beacon } = cert;
  const g = seal.giveaway;
  const n = seal.entrants.count;
  const amendments = amendmentsOf(cert);
  const reserves = cert.reserves.length
    ? html`<h3 id="reserves-heading">${t('v-reserves-heading')}</h3>${entrantsTable('reserve', cert.reserves, t('v-reserves-caption', { count: cert.reserves.length }), names, l)}`
    : '';
  const steps = [
    { key: 'timeline-sealed', at: seal.sealed_at, done: true },
    { key: 'timeline-round', at: seal.beacon.round_at, done: true, vars: { round: beacon.round } },
    { key: 'timeline-drawn', at: cert.drawn_at, done: true },
    ...amendments.map((a) => ({
      key: 'timeline-amended',
      at: a.amended_at,
      done: true,
      vars: { sequence: a.sequence },
    })),
  ];
  return html`<main>
<header><p class="eyebrow">${t('v-eyebrow-v2')}</p><h1>${g.title}</h1>
<p>${t('v-certificate')} <code>${cert.certificate_id}</code> · ${t('v-giveaway')} <a href="${pageHref(l, `/g/${g.public_id}`)}"><code>${g.public_id}</code></a> · ${t('v-drawn-on')} ${time(cert.drawn_at)}</p>
<p class="notice public">${t('v-v2-claim', { round: beacon.round })}</p>
${timeline(steps, l)}</header>

${verifyBox(cert, urls, l)}
${amendedSection(cert, l, names)}
<section aria-labelledby="winners-heading"><h2 id="winners-heading">${t(amendments.length ? 'v-winners-as-drawn' : 'v-winners-heading')}</h2>
${entrantsTable('winner', cert.winners, t('v-winners-caption', { count: cert.winners.length, entrants: n }), names, l)}
${reserves}</section>

<section aria-labelledby="seal-heading"><h2 id="seal-heading">${t('v-sealed-list')}</h2><dl>
<dt>${t('seal-id')}</dt><dd><code class="mono">${seal.seal_id}</code></dd>
<dt>${t('g-entrants')}</dt><dd>${n}</dd>
<dt>${t('seal-root')}</dt><dd>${hex(seal.entrants.root)}</dd>
<dt>${t('seal-sealed-at')}</dt><dd>${time(seal.sealed_at)}</dd>
<dt>${t('seal-round')}</dt><dd>${t('round-word')} ${seal.beacon.round} · ${time(seal.beacon.round_at)}</dd>
<dt>${t('seal-after-round')}</dt><dd>${t('seal-after-round-value', { round: seal.beacon.after_round })} ${hex(seal.beacon.after_randomness)}</dd>
<dt>${t('v-requested')}</dt><dd>${t('v-requested-value', { winners: g.winners_count, reserves: g.reserve_count })}</dd>
<dt>${t('seal-owner')}</dt><dd><code class="mono">${g.owner}</code>${organizerLink(g.owner, l)}</dd>
<dt>${t('seal-hash')}</dt><dd>${hex(seal.hash)}</dd>
<dt>${t('v-seal-log')}</dt><dd>${logEntry(cert, 'seal_log_index', l)}</dd>
<dt>${t('v-seal-timestamps')}</dt><dd>${timestampLines((cert as Stamps).seal_timestamps, 'seal', undefined, l)}</dd>
<dt>${t('v-seal-signature')}</dt><dd>${t('signature-by', { alg: seal.signature.alg })} <a href="${urls.keys}"><code>${seal.signature.kid}</code></a>: ${hex(seal.signature.value)}</dd>
</dl></section>

<section aria-labelledby="round-heading"><h2 id="round-heading">${t('v-round-heading')}</h2><dl>
<dt>${t('v-chain')}</dt><dd>${chainLabel(beacon.chain_hash, l)}</dd>
<dt>${t('v-round')}</dt><dd>${beacon.round} · <a href="${roundUrl(urls.relay, beacon.chain_hash, beacon.round)}">${t('seal-round-at-relay')}</a></dd>
<dt>${t('v-randomness')}</dt><dd>${hex(beacon.randomness)}</dd>
<dt>${t('v-bls-signature')}</dt><dd>${hex(beacon.signature)}</dd>
</dl></section>

<section aria-labelledby="draw-heading"><h2 id="draw-heading">${t('v-draw-heading')}</h2><dl>
<dt>${t('v-algorithm')}</dt><dd><a href="${pageHref(l, '/docs/draw-algorithm')}">${cert.algorithm}</a> (${t('v-public-spec')})</dd>
<dt>${t('v-seed')}</dt><dd>${hex(cert.seed)}</dd>
<dt>${t('v-seed-how')}</dt><dd>SHA-256("${cert.algorithm}" ‖ 0x00 ‖ ${t('v-seed-how-parts')})</dd>
<dt>${t('v-drawn-at')}</dt><dd>${time(cert.drawn_at)}</dd>
</dl></section>

<section aria-labelledby="proofs-heading"><h2 id="proofs-heading">${t('v-proofs-heading')}</h2>
<p>${t('v-proofs-explain')}</p>
${cert.winners.map((e) => proofDetails(e, false, names, l))}${cert.reserves.map((e) => proofDetails(e, true, names, l))}</section>

<section aria-labelledby="signature-heading"><h2 id="signature-heading">${t('v-signature-heading')}</h2><dl>
<dt>${t('v-certificate-hash')}</dt><dd>${hex(cert.hash)}</dd>
<dt>${t('log')}</dt><dd>${logEntry(cert, 'log_index', l)}</dd>
<dt>${t('v-certificate-timestamps')}</dt><dd>${timestampLines((cert as Stamps).certificate_timestamps, 'certificate', undefined, l)}</dd>
<dt>${t('signature')}</dt><dd>${t('signature-by', { alg: cert.signature.alg })} <a href="${urls.keys}"><code>${cert.signature.kid}</code></a></dd>
<dt>${t('signature-value')}</dt><dd>${hex(cert.signature.value)}</dd>
</dl></section>

<section aria-labelledby="how-heading"><h2 id="how-heading">${t('v-how-heading')}</h2>
<p>${t('v-how-v2', { round: beacon.round })}</p>
${amendments.length ? html`<p>${t('v-how-amended')}</p>` : ''}
${evidenceSettings(l)}
${terminalHint(urls.page, l, t('v-terminal-entrants'))}
<p>${t('v-downloads')} <a href="${urls.json}" type="application/json">${t('v-download-json')}</a> · <a href="${pageHref(l, urls.pdf)}" type="application/pdf">${t('v-download-pdf')}</a></p>
</section>
</main>
<footer><p>Tyche · <a href="${pageHref(l, `/g/${g.public_id}`)}">${t('footer-giveaway')}</a> · <a href="${pageHref(l, '/docs/draw-algorithm')}">${t('footer-how')}</a> · <a href="${urls.keys}">${t('footer-keys')}</a></p></footer>`;
}
