// The top of an amended certificate's page (CONTRACT §14): the winners as they stand after the
// amendments, then the history — who was replaced, by which reserve, why, when, the owner's note.
// What the page shows is what the JSON carries; the check below the page says whether it holds.

import { type Html, html } from '../edge/html.ts';
import { amendmentsOf, historyRows, winnersAsAmended } from '../proof/amendment-history.ts';
import { AMENDMENT_REASONS } from '../proof/amendments.ts';
import type { CertificateV2, EntrantWinner } from '../proof/v2-types.ts';
import { type FirstNames, personName } from './giveaway-results.ts';
import type { PageLocale } from './page-language.ts';
import { time } from './page-parts.ts';

/** The reason in the page's language (the bot's words for it), or as the history gives it. */
function reasonText(code: unknown, fallback: string, t: PageLocale['t']): string {
  return (AMENDMENT_REASONS as readonly unknown[]).includes(code) ? t(`reason-${String(code)}`) : fallback;
}

export function amendedSection(
  cert: CertificateV2,
  l: PageLocale,
  names: FirstNames = new Map(),
): Html | string {
  const { t } = l;
  const amendments = amendmentsOf(cert);
  if (amendments.length === 0) return '';
  const winners = winnersAsAmended(cert, amendments);
  const substitutes = new Set(amendments.map((a) => a.by?.index));
  const who = (e: EntrantWinner | undefined) =>
    e ? `${personName(e, names, l)} (${e.telegram_id})` : t('am-unlisted');
  const rows = winners.map(
    (w) =>
      html`<tr data-amended-position="${w.position}" data-telegram-id="${w.telegram_id}"><td>${w.position}</td><td>${personName(w, names, l)}</td><td class="mono">${w.telegram_id}</td><td>${t(substitutes.has(w.index) ? 'am-substitute' : 'am-as-drawn')}</td></tr>`,
  );
  const history = historyRows(cert, amendments).map(
    (
      row,
    ) => html`<li data-amendment-sequence="${row.sequence}"><p><strong>${t('am-amendment', { sequence: row.sequence })}</strong>, ${time(row.amendedAt)}:
${t('am-line', { position: row.position, replaced: who(row.replaced), reserve: row.reservePosition, by: who(row.by) })}</p>
<p>${t('am-reason')} ${reasonText(amendments.find((a) => a.sequence === row.sequence)?.reason, row.reason, t)}${row.note === null ? '' : html`. ${t('am-note')} “<span class="description">${row.note}</span>”`}</p></li>`,
  );
  const n = amendments.length;
  return html`<section aria-labelledby="amended-heading"><h2 id="amended-heading">${t('am-heading')}</h2>
<p class="notice">${t('am-notice', { count: n })}</p>
<div class="table-wrap"><table>
<caption>${t('am-caption', { winners: winners.length, count: n })}</caption>
<thead><tr><th scope="col">#</th><th scope="col">${t('col-name')}</th><th scope="col">${t('col-telegram-id')}</th><th scope="col">${t('am-since')}</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h3 id="history-heading">${t('am-history')}</h3>
<ol id="amendment-history" aria-labelledby="history-heading">${history}</ol></section>`;
}
