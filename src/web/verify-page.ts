import { Html, html, layout } from '../edge/html.ts';
import type { AnyCertificate } from '../giveaways/results/giveaway.views.ts';
import { describeSource, sourceReferenceUrl } from '../pdf/certificate-text.ts';
import type { CertificateV2 } from '../proof/v2-types.ts';
import type { CertificateV1 } from '../proof/verify-v1.ts';
import { DRAND_URL } from '../randomness/sources/drand.source.ts';
import { PAGE_SCRIPT_URL, VERIFY_SCRIPT_URL } from './browser-modules.ts';
import { checkTextBlock } from './check-text.ts';
import { type FirstNames, personName } from './giveaway-results.ts';
import { languageSwitch, localeFor, type PageLocale, pageHref } from './page-language.ts';
import { hex, logEntry, notFoundPage, PAGE_STYLE, time } from './page-parts.ts';
import { TIMELINE_STYLE } from './timeline.ts';
import { terminalHint, verifyBox } from './verify-page-top.ts';
import { type CertificateV2Urls, renderCertificateV2Body } from './verify-page-v2.ts';

/** The relay defaults to the public drand service; the server passes its own DRAND_URL. */
export type CertificateUrls = Omit<CertificateV2Urls, 'relay'> & { relay?: string };
export type { AnyCertificate };

export const isCertificateV2 = (cert: AnyCertificate): cert is CertificateV2 =>
  cert.algorithm === 'tyche-draw-v2';

function reference(cert: CertificateV1, { t }: PageLocale): Html {
  const r = cert.randomness;
  const url = sourceReferenceUrl(r.source, r.source_reference);
  if (url) return html`<a href="${url}">${r.source_reference}</a>`;
  return html`<code class="mono">${r.source_reference}</code> <span class="muted">(${t('v1-private-source')})</span>`;
}

function winnersTable(cert: CertificateV1, names: FirstNames, l: PageLocale): Html {
  const { t } = l;
  const rows = cert.winners.map(
    (w) =>
      html`<tr data-winner-position="${w.position}" data-telegram-id="${w.telegram_id}"><td>${w.position}</td><td>${personName(w, names, l)}</td><td class="mono">${w.telegram_id}</td></tr>`,
  );
  return html`<div class="table-wrap"><table>
<caption>${t('v1-winners-caption', { count: cert.winners.length, participants: cert.participants_count })}</caption>
<thead><tr><th scope="col">#</th><th scope="col">${t('col-name')}</th><th scope="col">${t('col-telegram-id')}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function beaconRows(cert: CertificateV1, { t }: PageLocale): Html | string {
  const r = cert.randomness;
  if (r.beacon_value === undefined && r.system_entropy === undefined) return '';
  return html`<dt>${t('v1-beacon-value')}</dt><dd>${hex(r.beacon_value)}</dd>
<dt>${t('v1-system-entropy')}</dt><dd>${hex(r.system_entropy)}</dd>
<dt>${t('v1-how-r')}</dt><dd>${t('v1-how-r-value')}</dd>`;
}

function renderCertificateV1Body(
  cert: CertificateV1,
  urls: CertificateUrls,
  l: PageLocale,
  names: FirstNames,
): Html {
  const { t } = l;
  const r = cert.randomness;
  const indices = cert.winners.map((w) => `#${w.position}: ${w.index}`).join(', ');
  return html`<main>
<header><p class="eyebrow">${t('v-eyebrow-v1')}</p><h1>${cert.title}</h1>
<p>${t('v-certificate')} <code>${cert.certificate_id}</code> · ${t('v-giveaway')} <code>${cert.public_id}</code> · ${t('v-drawn-on')} ${time(cert.drawn_at)}</p>
<p class="notice" data-trust="operator"><strong>${t('v1-operator-lead')}</strong> ${t('v1-operator-text', { algorithm: cert.algorithm })}</p></header>

${verifyBox(cert, urls, l)}
<section aria-labelledby="winners-heading"><h2 id="winners-heading">${t('v-winners-heading')}</h2>${winnersTable(cert, names, l)}</section>

<section aria-labelledby="draw-heading"><h2 id="draw-heading">${t('v-draw-heading')}</h2><dl>
<dt>${t('v-algorithm')}</dt><dd><a href="${pageHref(l, '/docs/draw-algorithm')}">${cert.algorithm}</a> (${t('v-public-spec')})</dd>
<dt>${t('v-drawn-at')}</dt><dd>${time(cert.drawn_at)}</dd>
<dt>${t('v1-participants')}</dt><dd>${cert.participants_count}</dd>
<dt>${t('v1-winners-requested')}</dt><dd>${cert.winners_count}</dd>
<dt>${t('v1-participants-hash')}</dt><dd>${hex(cert.participants_hash)}</dd>
<dt>${t('v-seed')}</dt><dd>${hex(cert.seed)}</dd>
<dt>${t('v-index')}</dt><dd class="mono">${indices}</dd>
</dl></section>

<section aria-labelledby="randomness-heading"><h2 id="randomness-heading">${t('v1-randomness')}</h2><dl>
<dt>${t('v1-source')}</dt><dd>${describeSource(r.source)} (<code>${r.source}</code>)</dd>
<dt>${t('v1-source-reference')}</dt><dd>${reference(cert, l)}</dd>
<dt>${t('v1-obtained-at')}</dt><dd>${time(r.obtained_at)}</dd>
<dt>${t('v1-operation')}</dt><dd><code class="mono">${r.request_id}</code></dd>
<dt>${t('v1-r')}</dt><dd>${hex(r.bytes)}</dd>
${beaconRows(cert, l)}
</dl></section>

<section aria-labelledby="seal-heading"><h2 id="seal-heading">${t('v-signature-heading')}</h2><dl>
<dt>${t('v-certificate-hash')}</dt><dd>${hex(cert.hash)}</dd>
<dt>${t('log')}</dt><dd>${logEntry(cert, 'log_index', l)}</dd>
<dt>${t('signature')}</dt><dd>${t('signature-by', { alg: String(cert.signature?.alg) })} <a href="${urls.keys}"><code>${cert.signature?.kid}</code></a></dd>
<dt>${t('signature-value')}</dt><dd>${hex(cert.signature?.value)}</dd>
</dl></section>

<section aria-labelledby="how-heading"><h2 id="how-heading">${t('v-how-heading')}</h2>
<p>${t('v-how-v1')}</p>
${terminalHint(urls.page, l, t('v-terminal-participants'))}
<p>${t('v-downloads')} <a href="${urls.json}" type="application/json">${t('v-download-json')}</a> · <a href="${pageHref(l, urls.pdf)}" type="application/pdf">${t('v-download-pdf')}</a></p>
</section>
</main>
<footer><p>Tyche · <a href="${pageHref(l, '/docs/draw-algorithm')}">${t('footer-how')}</a> · <a href="${urls.keys}">${t('footer-keys')}</a></p></footer>`;
}

export function renderCertificatePage(
  cert: AnyCertificate,
  urls: CertificateUrls,
  locale: PageLocale = localeFor('en'),
  names: FirstNames = new Map(),
): string {
  const { t } = locale;
  const main = isCertificateV2(cert)
    ? renderCertificateV2Body(cert, { ...urls, relay: urls.relay ?? DRAND_URL }, locale, names)
    : renderCertificateV1Body(cert, urls, locale, names);
  const path = new URL(urls.page, 'http://x').pathname;
  const body = html`${languageSwitch(locale, path)}${main}`;
  const title = isCertificateV2(cert) ? cert.seal.giveaway.title : cert.title;
  const head = html`<meta name="description" content="${t('v-meta', { id: cert.certificate_id, title })}">
<link rel="alternate" type="application/json" href="${urls.json}"><script type="module" src="${VERIFY_SCRIPT_URL}"></script><script type="module" src="${PAGE_SCRIPT_URL}"></script>
${clientText(locale)}${checkTextBlock(locale)}`;
  return layout({
    title: `${title} — ${t('v-title-suffix', { id: cert.certificate_id })}`,
    body,
    head,
    style: PAGE_STYLE + TIMELINE_STYLE,
    lang: locale.lang,
  });
}

/** The verify button's own words in the page's language, for its script (verify-page.client.ts). */
function clientText({ t }: PageLocale): Html {
  const text = {
    verifying: t('vc-verifying'),
    invalid: t('vc-invalid', { failed: '{failed}', total: '{total}' }),
    operator: t('vc-operator', { passed: '{passed}' }),
    valid: t('vc-valid', { passed: '{passed}' }),
    allPassed: t('vc-all-passed', { total: '{total}' }),
    noneFailed: t('vc-none-failed'),
    couldNot: t('vc-could-not', { error: '{error}' }),
    warning: t('vc-warning'),
  };
  return html`<script type="application/json" id="page-text">${new Html(JSON.stringify(text).replaceAll('<', '\\u003c'))}</script>`;
}

export function renderNotFoundPage(certificateId: string, locale: PageLocale = localeFor('en')): string {
  return notFoundPage(locale, { heading: 'v-not-found', text: 'v-not-found-text' }, certificateId);
}
