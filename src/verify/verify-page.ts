import { type Html, html, layout } from '../http/html.ts';
import type { Certificate } from '../proof/verify-draw.ts';
import { VERIFY_SCRIPT_URL } from './browser-modules.ts';
import { describeSource, formatUtc, sourceReferenceUrl } from './certificate-text.ts';

export interface CertificateUrls {
  page: string;
  json: string;
  pdf: string;
  keys: string;
}

const PAGE_STYLE = `
header{margin-bottom:1.5rem}.eyebrow{margin:0;color:var(--muted);font-size:.9rem;text-transform:uppercase;letter-spacing:.05em}
h1{margin:.2rem 0 .5rem;font-size:1.8rem;line-height:1.25;overflow-wrap:anywhere}h2{font-size:1.25rem;margin:2rem 0 .5rem}
dl{display:grid;grid-template-columns:minmax(9rem,14rem) 1fr;gap:.35rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
@media (max-width:36rem){dl{grid-template-columns:1fr}dd{margin-bottom:.5rem}h1{font-size:1.45rem}}
.table-wrap{overflow-x:auto}td{overflow-wrap:anywhere}td.mono{white-space:nowrap}caption{text-align:left;color:var(--muted);padding:.25rem 0}
button{font:inherit;font-weight:600;min-height:44px;padding:.5rem 1.25rem;border-radius:.4rem;border:0;background:var(--accent);color:var(--bg);cursor:pointer}
button:disabled{opacity:.6;cursor:progress}button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
#verify{border:1px solid var(--line);border-radius:.5rem;padding:0 1rem 1rem;margin-top:2rem}
.verdict{font-weight:700;font-size:1.1rem}.ok{color:var(--ok)}.bad{color:var(--bad)}
#verify-checks{list-style:none;padding:0}.check{display:grid;grid-template-columns:1.4rem 1fr;padding:.35rem 0;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
.check .mark{font-weight:700}.check .detail{grid-column:2;color:var(--fg);font-size:.9rem}
footer{margin-top:2rem;color:var(--muted);font-size:.9rem}
:root{--ok:#1a7f37;--bad:#c0212b}@media (prefers-color-scheme:dark){:root{--ok:#3fb950;--bad:#ff7b72}}`;

function hex(value: unknown): Html {
  return html`<code class="mono">${value ?? '—'}</code>`;
}

function time(iso: string): Html {
  return html`<time datetime="${iso}">${formatUtc(iso)}</time>`;
}

function reference(cert: Certificate): Html {
  const r = cert.randomness;
  const url = sourceReferenceUrl(r.source, r.source_reference);
  if (url) return html`<a href="${url}">${r.source_reference}</a>`;
  return html`<code class="mono">${r.source_reference}</code> <span class="muted">(a private source: its bytes are published only here)</span>`;
}

function winnersTable(cert: Certificate): Html {
  const rows = cert.winners.map(
    (w) =>
      html`<tr data-winner-position="${w.position}" data-telegram-id="${w.telegram_id}"><td>${w.position}</td><td>${w.username ? `@${w.username}` : '—'}</td><td class="mono">${w.telegram_id}</td><td class="mono">${w.index}</td></tr>`,
  );
  return html`<div class="table-wrap"><table>
<caption>${cert.winners.length} of ${cert.participants_count} participants, in draw order</caption>
<thead><tr><th scope="col">#</th><th scope="col">Username</th><th scope="col">Telegram ID</th><th scope="col">Canonical index</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function beaconRows(cert: Certificate): Html | string {
  const r = cert.randomness;
  if (r.beacon_value === undefined && r.system_entropy === undefined) return '';
  return html`<dt>Beacon value</dt><dd>${hex(r.beacon_value)}</dd>
<dt>System entropy</dt><dd>${hex(r.system_entropy)}</dd>
<dt>How R was made</dt><dd>R = SHA-256(beacon value ‖ system entropy): the beacon is public, the fresh entropy makes R unpredictable.</dd>`;
}

export function renderCertificatePage(cert: Certificate, urls: CertificateUrls): string {
  const r = cert.randomness;
  const body = html`<main>
<header><p class="eyebrow">Tyche draw certificate</p><h1>${cert.title}</h1>
<p>Certificate <code>${cert.certificate_id}</code> for giveaway <code>${cert.public_id}</code>, drawn on ${time(cert.drawn_at)}.</p></header>

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
<dt>Signature</dt><dd>${cert.signature?.alg} by key <a href="${urls.keys}"><code>${cert.signature?.kid}</code></a></dd>
<dt>Signature value</dt><dd>${hex(cert.signature?.value)}</dd>
</dl></section>

<section id="verify" aria-labelledby="verify-heading" data-certificate-url="${urls.json}" data-keys-url="${urls.keys}" data-hash="${cert.hash}">
<h2 id="verify-heading">Check it yourself</h2>
<p>With JavaScript on, the button below re-runs the checks in your browser with the same code the server uses: the hash of the
certificate, its Ed25519 signature against the <a href="${urls.keys}">published keys</a>, the seed and the
choice of every winner. No account or key is needed.</p>
<button type="button" id="verify-button" hidden>Verify this draw</button>
<div id="verify-result" aria-live="polite"><p id="verify-status"></p><ul id="verify-checks"></ul></div>
<p>From a terminal, with the participant list if you have it: <code class="mono">npx tyche verify ${urls.page} --participants participants.csv</code></p>
<p>Downloads: <a href="${urls.json}" type="application/json">certificate (JSON)</a> · <a href="${urls.pdf}" type="application/pdf">certificate (PDF)</a></p>
</section>
</main>
<footer><p>Tyche · <a href="/docs/draw-algorithm">how the draw works</a> · <a href="${urls.keys}">signing keys</a></p></footer>`;
  const head = html`<meta name="description" content="${`Draw certificate ${cert.certificate_id}: ${cert.title}`}">
<link rel="alternate" type="application/json" href="${urls.json}"><script type="module" src="${VERIFY_SCRIPT_URL}"></script>`;
  return layout({
    title: `${cert.title} — draw certificate ${cert.certificate_id}`,
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
