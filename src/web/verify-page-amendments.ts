// The top of an amended certificate's page (CONTRACT §14): the winners as they stand after the
// amendments, then the history — who was replaced, by which reserve, why, when, the owner's note.
// What the page shows is what the JSON carries; the check below the page says whether it holds.

import { type Html, html } from '../edge/html.ts';
import { amendmentsOf, entrantName, historyRows, winnersAsAmended } from '../proof/amendment-history.ts';
import type { CertificateV2 } from '../proof/v2-types.ts';
import { time } from './page-parts.ts';

export function amendedSection(cert: CertificateV2): Html | string {
  const amendments = amendmentsOf(cert);
  if (amendments.length === 0) return '';
  const winners = winnersAsAmended(cert, amendments);
  const substitutes = new Set(amendments.map((a) => a.by?.index));
  const rows = winners.map(
    (w) =>
      html`<tr data-amended-position="${w.position}" data-telegram-id="${w.telegram_id}"><td>${w.position}</td><td>${w.username ? `@${w.username}` : '—'}</td><td class="mono">${w.telegram_id}</td><td>${substitutes.has(w.index) ? 'substitute (from the reserves)' : 'as drawn'}</td></tr>`,
  );
  const history = historyRows(cert, amendments).map(
    (
      row,
    ) => html`<li data-amendment-sequence="${row.sequence}"><p><strong>Amendment ${row.sequence}</strong>, ${time(row.amendedAt)}:
winner #${row.position} ${entrantName(row.replaced)} was replaced by reserve ${row.reservePosition}, ${entrantName(row.by)}.</p>
<p>Reason: ${row.reason}${row.note === null ? '' : html`. Note from the organiser: “<span class="description">${row.note}</span>”`}</p></li>`,
  );
  const n = amendments.length;
  return html`<section aria-labelledby="amended-heading"><h2 id="amended-heading">Winners as amended</h2>
<p class="notice">After the draw, ${n === 1 ? 'one amendment' : `${n} amendments`} replaced a winner by the next unused reserve, in the order the draw fixed.
The winners below stand now; the certificate's own winners, as drawn, follow further down.</p>
<div class="table-wrap"><table>
<caption>${winners.length} winners after ${n} amendment${n === 1 ? '' : 's'}</caption>
<thead><tr><th scope="col">#</th><th scope="col">Username</th><th scope="col">Telegram ID</th><th scope="col">Since</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h3 id="history-heading">History of replacements</h3>
<ol id="amendment-history" aria-labelledby="history-heading">${history}</ol></section>`;
}
