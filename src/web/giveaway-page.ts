import { type Html, html, layout } from '../edge/html.ts';
import type { EntrantSeries } from '../giveaways/results/entrant-series.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { amendmentsOf } from '../proof/amendment-history.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import type { TokenVerdict } from '../proof/timestamp/timestamp-evidence.ts';
import { PAGE_SCRIPT_URL } from './browser-modules.ts';
import { CHART_STYLE, entrantChart } from './entrant-chart.ts';
import { sealSection } from './giveaway-page-seal.ts';
import { type AnyCertificate, type FirstNames, resultsSection } from './giveaway-results.ts';
import { organizerRow } from './organizer-link.ts';
import { languageSwitch, localeFor, type PageLocale, pageHref } from './page-language.ts';
import { notFoundPage, PAGE_STYLE, time } from './page-parts.ts';
import { termsSection } from './terms-section.ts';
import { TIMELINE_STYLE, type TimelineStep, timeline } from './timeline.ts';

function entriesSection(g: PublicGiveaway, l: PageLocale): Html {
  const { t } = l;
  const closes = g.ends_at ? html`${time(g.ends_at)}` : html`${t('g-closes-unset')}`;
  const spec = html`<a href="${pageHref(l, '/docs/draw-algorithm')}">${g.algorithm}</a>`;
  const mode =
    g.draw_mode === 'verifiable'
      ? html`${t('g-mode-verifiable')} (${spec}): ${t('g-mode-verifiable-how')}`
      : html`${t('g-mode-instant')} (${spec}): ${t('operator-trust')}`;
  const reserves = g.reserve_count > 0 ? `, ${t('g-then-reserves', { reserves: g.reserve_count })}` : '';
  return html`<section aria-labelledby="entries-heading"><h2 id="entries-heading">${t('g-entries-heading')}</h2><dl>
<dt>${t('g-status')}</dt><dd><span class="badge" data-status="${g.status}">${t(`g-status-${g.status}`)}</span></dd>
<dt>${t('g-entrants')}</dt><dd data-entrants-count>${g.entrants_count}</dd>
<dt>${t('g-winners')}</dt><dd>${g.winners_count}${reserves}</dd>
<dt>${t('g-created')}</dt><dd>${time(g.created_at)}</dd>
<dt>${t('g-closes')}</dt><dd>${closes}</dd>
<dt>${t('g-draw')}</dt><dd>${mode}</dd>
${conditionRows(g, l)}${organizerRow(g.owner, l)}</dl></section>`;
}

/** Channel conditions, and how many entrants the seal left out for not meeting them, and why. */
function conditionRows(g: PublicGiveaway, { t }: PageLocale): Html | string {
  if (g.conditions.length === 0 && g.excluded.length === 0) return '';
  const channels = g.conditions.map((c) => c.channel).join(', ');
  const reason = (r: string, count: number) =>
    r === 'left_required_channel' ? t('g-excluded-left-channel', { count }) : `${count} ${r}`;
  const excluded = g.excluded.map(
    (e) => html`<li data-excluded="${e.reason}">${reason(e.reason, e.count)}</li>`,
  );
  return html`<dt>${t('g-conditions')}</dt><dd data-conditions>${channels}: ${t('g-conditions-when')}</dd>
${g.excluded.length > 0 ? html`<dt>${t('g-excluded')}</dt><dd><ul>${excluded}</ul></dd>` : ''}`;
}

/** What the page shows beyond the public giveaway, each read by the route when there is one. */
export interface GiveawayPageExtras {
  /** The published certificate once drawn: its winners and reserves go at the top. */
  certificate?: AnyCertificate;
  /** Winners' first names (for those without a username). */
  firstNames?: FirstNames;
  series?: EntrantSeries;
}

function steps(g: PublicGiveaway, certificate: AnyCertificate | undefined): TimelineStep[] {
  const list: TimelineStep[] = [{ key: 'timeline-created', at: g.created_at, done: true }];
  if (g.draw_mode === 'verifiable') {
    const round = g.seal?.beacon.round;
    list.push({ key: 'timeline-sealed', at: g.seal?.sealed_at ?? g.ends_at, done: g.seal !== null });
    list.push({
      key: round === undefined ? 'timeline-round-unknown' : 'timeline-round',
      at: g.seal?.beacon.round_at ?? null,
      done: g.status === 'completed',
      vars: round === undefined ? undefined : { round },
    });
  }
  const drawnAt = certificate?.drawn_at ?? null;
  list.push({ key: 'timeline-drawn', at: drawnAt, done: g.status === 'completed' });
  for (const a of amendmentsOf(certificate)) {
    list.push({ key: 'timeline-amended', at: a.amended_at, done: true, vars: { sequence: a.sequence } });
  }
  return list;
}

/** While sealed: when the round is due, counted down by the page's script, which reloads after the draw. */
function waitingSection(g: PublicGiveaway, { t }: PageLocale): Html | string {
  if (g.status === 'sealed' && g.seal) {
    const b = g.seal.beacon;
    return html`<section class="panel" aria-labelledby="wait-heading" id="draw-countdown" data-round-at="${b.round_at}" data-giveaway-json="/g/${g.public_id}.json">
<h2 id="wait-heading">${t('g-wait-heading')}</h2>
<p>${t('g-wait-round', { round: b.round })} ${time(b.round_at)}.</p>
<p class="countdown" aria-live="polite" data-countdown hidden></p>
<p class="muted" data-countdown-note>${t('g-wait-reload')}</p></section>`;
  }
  if (g.status === 'sealing') {
    return html`<section class="panel" aria-labelledby="wait-heading"><h2 id="wait-heading">${t('g-wait-heading')}</h2>
<p>${t('g-sealing')}</p></section>`;
  }
  return '';
}

function receiptSection(g: PublicGiveaway, l: PageLocale): Html {
  const { t } = l;
  return html`<section aria-labelledby="receipt-heading" class="panel"><h2 id="receipt-heading">${t('g-receipt-heading')}</h2>
<p>${t('g-receipt-text-before')} <a href="${pageHref(l, `/g/${g.public_id}/receipt`)}">${t('g-receipt-link')}</a>${t('g-receipt-text-after')}</p></section>`;
}

export function renderGiveawayPage(
  g: PublicGiveaway,
  evidence: { sealWitnessed?: boolean; sealTokens?: TokenVerdict[] } = {},
  extras: GiveawayPageExtras = {},
  locale: PageLocale = localeFor('en'),
): string {
  const l = locale;
  const { t } = l;
  const path = `/g/${g.public_id}`;
  const body = html`${languageSwitch(l, path)}<main>
<header><p class="eyebrow">${t('g-eyebrow')}</p><h1>${g.title}</h1>
${g.description ? html`<p class="description">${g.description}</p>` : ''}
<p><span class="badge">${t(`g-status-${g.status}`)}</span> · ${t('g-entrants-count', { count: g.entrants_count })}</p>
${timeline(steps(g, extras.certificate), l)}</header>
${resultsSection(g, extras.certificate, extras.firstNames ?? new Map(), l)}
${waitingSection(g, l)}
${entrantChart(extras.series, l)}
${g.draw_mode === 'verifiable' && g.status !== 'completed' ? receiptSection(g, l) : ''}
${entriesSection(g, l)}
${termsSection(g)}
${g.seal ? sealSection(g, g.seal, evidence, l) : ''}
${g.draw_mode === 'verifiable' && g.status === 'completed' ? receiptSection(g, l) : ''}
</main>
<footer><p>Tyche · <a href="${pageHref(l, '/docs/draw-algorithm')}">${t('footer-how')}</a> · <a href="${KEYS_PATH}">${t('footer-keys')}</a> · <a href="${path}.json">JSON</a></p></footer>`;
  const head = html`<meta name="description" content="${t('g-meta', { id: g.public_id, title: g.title })}">
<link rel="alternate" type="application/json" href="${path}.json"><script type="module" src="${PAGE_SCRIPT_URL}"></script>`;
  return layout({
    title: `${g.title} — ${t('g-title-suffix')}`,
    body,
    head,
    style: PAGE_STYLE + CHART_STYLE + TIMELINE_STYLE,
    lang: l.lang,
  });
}

export function renderGiveawayNotFoundPage(publicId: string, locale: PageLocale = localeFor('en')): string {
  return notFoundPage(locale, { heading: 'g-not-found', text: 'g-not-found-text' }, publicId);
}
