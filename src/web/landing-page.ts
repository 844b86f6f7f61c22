// The pages a browser finds at `/` and at an address that leads nowhere: what Tyche is and where
// to go, in the visitor's language. API clients (no `text/html` in Accept) keep their JSON.

import { FAVICON_PATH, html, layout } from '../edge/html.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import { languageSwitch, type PageLocale, pageHref } from './page-language.ts';
import { PAGE_STYLE } from './page-parts.ts';

/** True when a browser asked: Accept names text/html (API clients send JSON or nothing). */
export function wantsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

const LANDING_STYLE = `.logo{width:3rem;height:3rem;vertical-align:middle;margin-right:.5rem}
.links{padding-left:1.2rem}.links li{margin:.4rem 0}`;

export function renderLandingPage(l: PageLocale): string {
  const { t } = l;
  const body = html`${languageSwitch(l, '/')}<main>
<header><h1><img class="logo" src="${FAVICON_PATH}" alt="">Tyche</h1><p class="description">${t('landing-lead')}</p></header>
<section aria-labelledby="what-heading"><h2 id="what-heading">${t('landing-what-heading')}</h2>
<p>${t('landing-what')}</p></section>
<section aria-labelledby="links-heading"><h2 id="links-heading">${t('landing-links-heading')}</h2><ul class="links">
<li><a href="${pageHref(l, '/docs/draw-algorithm')}">${t('footer-how')}</a></li>
<li><a href="/docs/">${t('landing-api')}</a></li>
<li><a href="/tyche-verify.mjs">${t('landing-verifier')}</a></li>
<li><a href="${KEYS_PATH}">${t('footer-keys')}</a> · <a href="/log/checkpoint">${t('landing-log')}</a></li>
</ul></section></main>`;
  return layout({
    title: `Tyche — ${t('landing-title')}`,
    body,
    style: PAGE_STYLE + LANDING_STYLE,
    lang: l.lang,
  });
}

export function renderMissingPage(path: string, l: PageLocale): string {
  const { t } = l;
  const body = html`${languageSwitch(l, '/')}<main><h1>${t('missing-heading')}</h1>
<p>${t('missing-text')} <code class="mono">${path}</code></p>
<p><a href="${pageHref(l, '/')}">${t('missing-home')}</a></p></main>`;
  return layout({ title: `${t('missing-heading')} — Tyche`, body, style: PAGE_STYLE, lang: l.lang });
}

/** Tyche's mark: a die face with the pips of a draw, in the page's accent colour, legible at 16 px. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="4" y="4" width="56" height="56" rx="12" fill="#0b5cad"/><circle cx="20" cy="20" r="6" fill="#fff"/><circle cx="32" cy="32" r="6" fill="#fff"/><circle cx="44" cy="44" r="6" fill="#fff"/></svg>`;
