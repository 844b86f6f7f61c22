// The language of a public page (the /g, /verify and receipt pages, /o, the landing page, the
// certificate PDF): `?lang=en|ru` when the visitor chose one with the page's switch, else the
// browser's Accept-Language, else English. Texts come from the catalogue the bot uses
// (src/i18n/locales/*/pages.ftl).

import { type Html, html } from '../edge/html.ts';
import {
  isLanguage,
  LANGUAGES,
  type Language,
  pagesTranslatorFor,
  type Translate,
} from '../i18n/catalogue.ts';

/** What a page needs to speak the visitor's language and keep it in its links. */
export interface PageLocale {
  lang: Language;
  t: Translate;
  /** True when the address chose it (`?lang=`): then the page's own links carry it on. */
  chosen: boolean;
}

/** The language an Accept-Language header prefers among ours (q-values honoured), or undefined. */
export function preferredLanguage(acceptLanguage: string | undefined): Language | undefined {
  if (!acceptLanguage) return undefined;
  let best: { lang: Language; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const primary = range.split('-')[0];
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    // `*` accepts anything: English, the default, at that weight.
    const lang = primary === '*' ? 'en' : primary;
    if (isLanguage(lang) && (best === undefined || q > best.q)) best = { lang, q };
  }
  return best?.lang;
}

export function localeFor(lang: Language, chosen = false): PageLocale {
  return { lang, t: pagesTranslatorFor(lang), chosen };
}

/** The page's language for a request: `?lang=` wins over Accept-Language; English by default. */
export function pageLocale(request: {
  query?: unknown;
  headers: { 'accept-language'?: string };
}): PageLocale {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const asked = typeof query.lang === 'string' ? query.lang.toLowerCase() : undefined;
  if (isLanguage(asked)) return localeFor(asked, true);
  return localeFor(preferredLanguage(request.headers['accept-language']) ?? 'en');
}

/** A link to one of our pages that keeps the visitor's chosen language (a fragment stays last). */
export function pageHref(locale: PageLocale, path: string): string {
  if (!locale.chosen) return path;
  const [beforeHash, hash] = path.split('#', 2);
  const joined = `${beforeHash}${beforeHash.includes('?') ? '&' : '?'}lang=${locale.lang}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

const NAMES: Record<Language, string> = { en: 'English', ru: 'Русский' };

/** The switch at the top of every page: each other language as a link to this page in it. */
export function languageSwitch(locale: PageLocale, path: string): Html {
  const links = LANGUAGES.map((lang) =>
    lang === locale.lang
      ? html`<span aria-current="true" lang="${lang}">${NAMES[lang]}</span>`
      : html`<a href="${path}?lang=${lang}" hreflang="${lang}" lang="${lang}">${NAMES[lang]}</a>`,
  );
  return html`<nav class="lang-switch" aria-label="${locale.t('page-language')}">${links.map((l, i) => (i === 0 ? l : html` · ${l}`))}</nav>`;
}

/** Headers of an answer whose body depends on the language the request negotiated. */
export const VARY_LANGUAGE = 'accept, accept-language';
