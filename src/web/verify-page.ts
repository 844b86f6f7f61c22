import { type Html, html, layout } from '../edge/html.ts';
import type { AnyCertificate } from '../giveaways/results/giveaway.views.ts';
import { describeSource, sourceReferenceUrl } from '../pdf/certificate-text.ts';
import { OPERATOR_TRUST_LABEL } from '../proof/report.ts';
import type { CertificateV2 } from '../proof/v2-types.ts';
import type { CertificateV1 } from '../proof/verify-v1.ts';
import { DRAND_URL } from '../randomness/sources/drand.source.ts';
import { VERIFY_SCRIPT_URL } from './browser-modules.ts';
import { hex, logEntry, PAGE_STYLE, time } from './page-parts.ts';
import { type CertificateV2Urls, renderCertificateV2Body } from './verify-page-v2.ts';

/** The relay defaults to the public drand service; the server passes its own DRAND_URL. */
export type CertificateUrls = Omit<CertificateV2Urls, 'relay'> & { relay?: string };
export type { AnyCertificate };

export const isCertificateV2 = (cert: AnyCertificate): cert is CertificateV2 =>
  cert.algorithm === 'tyche-draw-v2';

function reference(cert: CertificateV1): Html {
  const r = cert.randomness;
  const url = sourceReferenceUrl(r.source, r.source_reference);
  if (url) return html`<a href="${url}">${r.source_reference}</a>`;
  return html`<code class="mono">${r.source_reference}</code> <span class="muted">(a private source: its bytes are published only here)</span>`;
}

function winnersTable(cert: CertificateV1): Html {
  const rows = cert.winners.map(
    (w) =>
      html`<tr data-winner-position="${w.position}" data-telegram-id="${w.telegram_id}"><td>${w.position}</td><td>${w.username ? `@${w.username}` : '—'}</td><td class="mono">${w.telegram_id}</td><td class="mono">${w.index}</td></tr>`,
  );
  return html`<div class="table-wrap"><table>
<caption>${cert.winners.length} of ${cert.participants_count} participants, in draw order</caption>
<thead><tr><th scope="col">#</th><th scope="col">Username</th><th scope="col">Telegram ID</th><th scope="col">Canonical index</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function beaconRows(cert: CertificateV1): Html | string {
  const r = cert.randomness;
  if (r.beacon_value === undefined && r.system_entropy === undefined) return '';
  return html`<dt>Beacon value</dt><dd>${hex(r.beacon_value)}</dd>
<dt>System entropy</dt><dd>${hex(r.system_entropy)}</dd>
<dt>How R was made</dt><dd>R = SHA-256(beacon value ‖ system entropy): the beacon is public, the fresh entropy makes R unpredictable.</dd>`;
}

function renderCertificateV1Body(cert: CertificateV1, urls: CertificateUrls): Html {
  const r = cert.randomness;
  return html`<main>
<header><p class="eyebrow">Tyche draw certificate · instant draw</p><h1>${cert.title}</h1>
<p>Certificate <code>${cert.certificate_id}</code> for giveaway <code>${cert.public_id}</code>, drawn on ${time(cert.drawn_at)}.</p>
<p class="notice" data-trust="operator"><strong>Operator-trusted draw:</strong> ${OPERATOR_TRUST_LABEL}. The arithmetic below can be
checked by anyone, but not that the randomness was obtained once and not chosen: this giveaway was drawn instantly
(${cert.algorithm}), without a sealed list and a public round.</p></header>

<section aria-labelledby="winners-heading"><h2 id="winners-heading">Winners</h2>${winnersTable(cert)}</section>

<section aria-labelledby="draw-heading"><h2 id="draw-heading">The draw</h2><dl>
<dt>Algorithm</dt><dd><a href="/docs/draw-algorithm">${cert.algorithm}</a> (public specification)</dd>
<dt>Drawn at (UTC)</dt><dd>${time(cert.drawn_at)}</dd>
<dt>Participants</dt><dd>${cert.participants_count}</dd>
<dt>Winners requested</dt><dd>${cert.winners_count}</dd>
<dt>Participants hash</dt><dd>${hex(cert.participants_hash)}</dd>
<dt>Seed</dt><dd>${hex(cert.seed)}</dd>
</dl></section>

<section aria-labelledby="randomness-heading"><h2 id="randomness-heading">Randomness</h2><dl>
<dt>Source</dt><dd>${describeSource(r.source)} (<code>${r.source}</code>)</dd>
<dt>Source reference</dt><dd>${reference(cert)}</dd>
<dt>Obtained at (UTC)</dt><dd>${time(r.obtained_at)}</dd>
<dt>Operation</dt><dd><code class="mono">${r.request_id}</code></dd>
<dt>R (32 bytes)</dt><dd>${hex(r.bytes)}</dd>
${beaconRows(cert)}
</dl></section>

<section aria-labelledby="seal-heading"><h2 id="seal-heading">Seal</h2><dl>
<dt>Certificate hash</dt><dd>${hex(cert.hash)}</dd>
<dt>Transparency log</dt><dd>${logEntry(cert, 'log_index')}</dd>
<dt>Signature</dt><dd>${cert.signature?.alg} by key <a href="${urls.keys}"><code>${cert.signature?.kid}</code></a></dd>
<dt>Signature value</dt><dd>${hex(cert.signature?.value)}</dd>
</dl></section>

<section id="verify" aria-labelledby="verify-heading" data-certificate-url="${urls.json}" data-keys-url="${urls.keys}" data-hash="${cert.hash}">
<h2 id="verify-heading">Check it yourself</h2>
<p>With JavaScript on, the button below re-runs the checks in your browser with the same code the server uses: the hash of the
certificate, its Ed25519 signature against the <a href="${urls.keys}">published keys</a>, the seed and the
choice of every winner. No account or key is needed. Whatever the checks say, ${OPERATOR_TRUST_LABEL}.</p>
<button type="button" id="verify-button" hidden>Verify this draw</button>
<div id="verify-result" aria-live="polite"><p id="verify-status"></p><ul id="verify-checks" class="checks"></ul></div>
<p>From a terminal, with the participant list if you have it: <code class="mono">npx tyche verify ${urls.page} --participants participants.csv</code></p>
<p>Downloads: <a href="${urls.json}" type="application/json">certificate (JSON)</a> · <a href="${urls.pdf}" type="application/pdf">certificate (PDF)</a></p>
</section>
</main>
<footer><p>Tyche · <a href="/docs/draw-algorithm">how the draw works</a> · <a href="${urls.keys}">signing keys</a></p></footer>`;
}

export function renderCertificatePage(cert: AnyCertificate, urls: CertificateUrls): string {
  const body = isCertificateV2(cert)
    ? renderCertificateV2Body(cert, { ...urls, relay: urls.relay ?? DRAND_URL })
    : renderCertificateV1Body(cert, urls);
  const title = isCertificateV2(cert) ? cert.seal.giveaway.title : cert.title;
  const head = html`<meta name="description" content="${`Draw certificate ${cert.certificate_id}: ${title}`}">
<link rel="alternate" type="application/json" href="${urls.json}"><script type="module" src="${VERIFY_SCRIPT_URL}"></script>`;
  return layout({
    title: `${title} — draw certificate ${cert.certificate_id}`,
    body,
    head,
    style: PAGE_STYLE,
  });
}

export function renderNotFoundPage(certificateId: string): string {
  const body = html`<main><h1>Certificate not found</h1>
<p>No draw certificate has the id <code class="mono">${certificateId}</code>. Check the address: it is the
<code>verify_url</code> given when the giveaway was drawn.</p>
<p><a href="/docs/draw-algorithm">How Tyche draws work</a></p></main>`;
  return layout({ title: 'Certificate not found — Tyche', body, style: PAGE_STYLE });
}
