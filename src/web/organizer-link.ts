import { type Html, html } from '../edge/html.ts';
import { localeFor, type PageLocale, pageHref } from './page-language.ts';

/** Where an owner pseudonym's record is (CONTRACT §14 "/o/{owner}"). */
export const organizerPath = (owner: string) => `/o/${encodeURIComponent(owner)}`;

/** " · the organizer's record", to follow an owner pseudonym shown on a page; nothing without one. */
export function organizerLink(
  owner: string | null | undefined,
  locale: PageLocale = localeFor('en'),
): Html | string {
  if (!owner) return '';
  const { t } = locale;
  return html` · <a href="${pageHref(locale, organizerPath(owner))}" title="${t('o-record-link-title')}" data-organizer-link>${t('o-record-link')}</a>`;
}

/** A definition-list row naming the organizer by pseudonym, with the link to their record. */
export function organizerRow(
  owner: string | null | undefined,
  locale: PageLocale = localeFor('en'),
): Html | string {
  if (!owner) return '';
  return html`<dt>${locale.t('o-label')}</dt><dd><code class="mono">${owner}</code>${organizerLink(owner, locale)}</dd>`;
}
