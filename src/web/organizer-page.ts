import { type Html, html, layout } from '../edge/html.ts';
import type { OrganizerGiveaway, OrganizerRecord, RedFlag } from '../giveaways/results/organizer-record.ts';
import { AMENDMENT_REASONS } from '../proof/amendments.ts';
import { organizerPath } from './organizer-link.ts';
import { languageSwitch, localeFor, type PageLocale, pageHref } from './page-language.ts';
import { PAGE_STYLE, time } from './page-parts.ts';

/** Giveaways listed on the page; the JSON has them all. */
const LISTED_MAX = 200;

const COLUMNS = [
  'o-col-giveaway',
  'o-col-sealed',
  'o-col-round',
  'o-col-drawn',
  'o-col-round-to-draw',
  'o-col-replaced',
] as const;

const giveawayLink = (id: string, l: PageLocale) =>
  html`<a href="${pageHref(l, `/g/${encodeURIComponent(id)}`)}"><code>${id}</code></a>`;
const entryLink = (i: number) => html`<a href="/log/entries?start=${i}&amp;end=${i + 1}">${i}</a>`;

/**
 * A red flag: its kind, then what the log says of it. The detail is the record's own English
 * sentence (ids, hashes and entries read from the log); a page in another language says instead
 * why the kind matters, and links the giveaways and entries it names.
 */
function flagItem(flag: RedFlag, l: PageLocale): Html {
  const { t } = l;
  const detail = l.lang === 'en' ? flag.detail : t(`o-flag-why-${flag.flag}`);
  return html`<li data-red-flag="${flag.flag}"><strong>${t(`o-flag-${flag.flag}`)}</strong>: ${detail}
<br><span class="muted">${flag.giveaways.map((id, i) => html`${i > 0 ? ', ' : ''}${giveawayLink(id, l)}`)} · ${t('o-entries')}: ${flag.entries.map((e, i) => html`${i > 0 ? ', ' : ''}${entryLink(e)}`)}</span></li>`;
}

function flagsSection(record: OrganizerRecord, l: PageLocale): Html {
  const { t } = l;
  if (record.red_flags.length === 0) {
    return html`<p class="notice public" data-red-flags="0">${t('o-no-flags')}</p>`;
  }
  return html`<section aria-labelledby="flags-heading" class="notice" data-red-flags="${record.red_flags.length}">
<h2 id="flags-heading" class="bad">${t('o-flags-heading')}</h2><p>${t('o-flags-intro', { count: record.red_flags.length })}</p>
<ul>${record.red_flags.map((flag) => flagItem(flag, l))}</ul></section>`;
}

function replacements(record: OrganizerRecord, { t }: PageLocale): Html | string {
  const { total, by_reason } = record.replacements;
  if (total === 0) return t('o-replaced-none');
  const reasons = AMENDMENT_REASONS.filter((r) => by_reason[r] > 0).map(
    (r) => html`<li data-reason="${r}">${by_reason[r]} ${t(`reason-${r}`)}</li>`,
  );
  return html`${total}<ul>${reasons}</ul>`;
}

function summarySection(record: OrganizerRecord, l: PageLocale): Html {
  const { t } = l;
  const median = record.median_seconds_round_to_draw;
  return html`<section aria-labelledby="summary-heading"><h2 id="summary-heading">${t('o-summary-heading')}</h2><dl>
<dt>${t('o-sealed')}</dt><dd data-sealed>${record.giveaways_sealed}</dd>
<dt>${t('o-drawn')}</dt><dd data-drawn>${record.giveaways_drawn}</dd>
<dt>${t('o-median')}</dt><dd data-median>${median === null ? t('o-median-none') : t('o-median-value', { seconds: median })}</dd>
<dt>${t('o-replaced')}</dt><dd data-replaced="${record.replacements.total}">${replacements(record, l)}</dd>
</dl></section>`;
}

function giveawayRow(g: OrganizerGiveaway, l: PageLocale): Html {
  const { t } = l;
  const roundToDraw =
    g.seconds_round_to_draw === null ? '—' : t('o-seconds', { seconds: g.seconds_round_to_draw });
  return html`<tr data-giveaway="${g.public_id}"><td>${giveawayLink(g.public_id, l)} ${g.title ?? t('o-untitled')}</td>
<td>${g.sealed_at ? time(g.sealed_at) : '—'}</td><td class="mono">${g.round ?? '—'}</td>
<td>${g.drawn_at ? time(g.drawn_at) : t('o-not-drawn')}</td>
<td>${roundToDraw}</td><td>${g.replacements}</td></tr>`;
}

function giveawaysSection(record: OrganizerRecord, l: PageLocale): Html {
  const { t } = l;
  const shown = record.giveaways.slice(0, LISTED_MAX);
  const all = record.giveaways.length;
  const caption =
    shown.length === all
      ? t('o-giveaways-all', { count: all })
      : t('o-giveaways-some', { shown: shown.length, count: all });
  return html`<section aria-labelledby="giveaways-heading"><h2 id="giveaways-heading">${t('o-giveaways-heading')}</h2>
<div class="table-wrap"><table><caption>${caption}</caption>
<thead><tr>${COLUMNS.map((key) => html`<th scope="col">${t(key)}</th>`)}</tr></thead>
<tbody>${shown.map((g) => giveawayRow(g, l))}</tbody></table></div></section>`;
}

/** The page of /o/{owner}: red flags first (what a visitor came to learn), then the figures and the giveaways. */
export function renderOrganizerPage(record: OrganizerRecord, locale: PageLocale = localeFor('en')): string {
  const l = locale;
  const { t } = l;
  const path = organizerPath(record.owner);
  const json = `${path}.json`;
  const how = t('o-how', { count: record.log_entries, last: record.last_log_index });
  const body = html`${languageSwitch(l, path)}<main>
<header><p class="eyebrow">${t('o-eyebrow')}</p><h1>${t('o-heading')} <code class="mono">${record.owner}</code></h1>
<p class="muted">${t('o-intro')}</p></header>
${flagsSection(record, l)}
${summarySection(record, l)}
${giveawaysSection(record, l)}
<section aria-labelledby="how-heading"><h2 id="how-heading">${t('o-how-heading')}</h2>
<p>${how} <code class="mono">tyche log verify</code>. <a href="${json}" type="application/json">${t('o-json')}</a>.</p></section>
</main>
<footer><p>Tyche · <a href="${pageHref(l, '/docs/draw-algorithm')}">${t('footer-how')}</a> · <a href="/log/checkpoint">${t('o-footer-log')}</a> · <a href="${json}">JSON</a></p></footer>`;
  const head = html`<meta name="description" content="${t('o-description', { owner: record.owner })}">
<link rel="alternate" type="application/json" href="${json}">`;
  return layout({
    title: t('o-title', { owner: record.owner }),
    body,
    head,
    style: PAGE_STYLE,
    lang: l.lang,
  });
}

export function renderOrganizerNotFoundPage(owner: string, locale: PageLocale = localeFor('en')): string {
  const l = locale;
  const { t } = l;
  const body = html`${languageSwitch(l, organizerPath(owner))}<main><h1>${t('o-not-found-heading')}</h1>
<p>${t('o-not-found-before')} <code class="mono">${owner}</code>${t('o-not-found-after')}</p>
<p><a href="${pageHref(l, '/docs/draw-algorithm')}">${t('footer-how')}</a></p></main>`;
  return layout({ title: t('o-not-found-title'), body, style: PAGE_STYLE, lang: l.lang });
}
