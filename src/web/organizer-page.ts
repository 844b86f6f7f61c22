import { type Html, html, layout } from '../edge/html.ts';
import type {
  OrganizerGiveaway,
  OrganizerRecord,
  RedFlag,
  RedFlagKind,
} from '../giveaways/results/organizer-record.ts';
import { AMENDMENT_REASONS, type AmendmentReason } from '../proof/amendments.ts';
import { organizerPath } from './organizer-link.ts';
import { PAGE_STYLE, time } from './page-parts.ts';

// Every visible string of /o/{owner}, kept here to move into the pages' catalogue.
const T = {
  eyebrow: "Tyche organizer's record",
  heading: (owner: string) => html`Organizer <code class="mono">${owner}</code>`,
  title: (owner: string) => `Organizer ${owner} — Tyche`,
  description: (owner: string) => `The public record of organizer ${owner}, from the transparency log`,
  intro:
    'A stable public pseudonym of the account that runs these giveaways (never its Telegram id). Everything below is computed from the transparency log alone: the seals, certificates and replacements this organizer published, as anyone can read them.',
  noFlags:
    'No red flags: no giveaway was sealed twice, no two of its giveaways were sealed on the same drand round, and every replaced winner was replaced by the next reserve in order.',
  flagsHeading: 'Red flags',
  flagsIntro: (n: number) =>
    `${n} red flag${n === 1 ? '' : 's'} in the transparency log. Each is what a monitor reports; judge the giveaways named with it.`,
  flag: {
    multiple_seals: 'A giveaway sealed more than once',
    shared_round: 'Giveaways sealed on the same drand round',
    reserve_order: 'A substitute out of reserve order',
  } satisfies Record<RedFlagKind, string>,
  entries: 'Log entries',
  summaryHeading: 'At a glance',
  sealed: 'Giveaways sealed',
  drawn: 'Giveaways drawn',
  median: 'Median time from the round to the draw',
  medianNone: 'no draw yet',
  medianValue: (s: number) =>
    `${s} s (over the drawn giveaways: from the committed drand round's time to the draw)`,
  replaced: 'Winners replaced',
  replacedNone: 'none',
  reasons: {
    left_channel: 'left the channel',
    unclaimed: 'did not claim in time',
    ineligible: 'ineligible',
    duplicate_account: 'duplicate account',
    other: 'other',
  } satisfies Record<AmendmentReason, string>,
  giveawaysHeading: 'Giveaways',
  giveawaysCaption: (shown: number, all: number) =>
    shown === all
      ? `${all} giveaway${all === 1 ? '' : 's'}, newest first`
      : `The newest ${shown} of ${all}; the JSON lists all`,
  columns: ['Giveaway', 'Sealed (UTC)', 'Round', 'Drawn (UTC)', 'Round → draw', 'Replaced'],
  untitled: '(no title)',
  notDrawn: 'not drawn yet',
  seconds: (s: number) => `${s} s`,
  howHeading: 'How this record is made',
  how: (count: number, last: number) =>
    `From the ${count} log entr${count === 1 ? 'y' : 'ies'} filed under this pseudonym (the newest is entry ${last}): each seal and certificate names its owner in the signed seal, and each replacement names its giveaway. Signatures and the log's consistency are checked by`,
  howCommand: 'tyche log verify',
  json: 'This record as JSON',
  notFoundTitle: 'Organizer not found — Tyche',
  notFoundHeading: 'No record for this organizer',
  notFoundText: (owner: string) =>
    html`The transparency log holds nothing about <code class="mono">${owner}</code>. An organizer appears here once one of their giveaways is sealed; check the address, which a giveaway's page links to.`,
  footerAlgorithm: 'how the draw works',
  footerLog: 'the transparency log',
};

/** Giveaways listed on the page; the JSON has them all. */
const LISTED_MAX = 200;

const giveawayLink = (id: string) => html`<a href="/g/${encodeURIComponent(id)}"><code>${id}</code></a>`;
const entryLink = (i: number) => html`<a href="/log/entries?start=${i}&amp;end=${i + 1}">${i}</a>`;

function flagItem(flag: RedFlag): Html {
  return html`<li data-red-flag="${flag.flag}"><strong>${T.flag[flag.flag]}</strong>: ${flag.detail}
<br><span class="muted">${flag.giveaways.map((id, i) => html`${i > 0 ? ', ' : ''}${giveawayLink(id)}`)} · ${T.entries}: ${flag.entries.map((e, i) => html`${i > 0 ? ', ' : ''}${entryLink(e)}`)}</span></li>`;
}

function flagsSection(record: OrganizerRecord): Html {
  if (record.red_flags.length === 0) {
    return html`<p class="notice public" data-red-flags="0">${T.noFlags}</p>`;
  }
  return html`<section aria-labelledby="flags-heading" class="notice" data-red-flags="${record.red_flags.length}">
<h2 id="flags-heading" class="bad">${T.flagsHeading}</h2><p>${T.flagsIntro(record.red_flags.length)}</p>
<ul>${record.red_flags.map(flagItem)}</ul></section>`;
}

function replacements(record: OrganizerRecord): Html | string {
  const { total, by_reason } = record.replacements;
  if (total === 0) return T.replacedNone;
  const reasons = AMENDMENT_REASONS.filter((r) => by_reason[r] > 0).map(
    (r) => html`<li data-reason="${r}">${by_reason[r]} ${T.reasons[r]}</li>`,
  );
  return html`${total}<ul>${reasons}</ul>`;
}

function summarySection(record: OrganizerRecord): Html {
  const median = record.median_seconds_round_to_draw;
  return html`<section aria-labelledby="summary-heading"><h2 id="summary-heading">${T.summaryHeading}</h2><dl>
<dt>${T.sealed}</dt><dd data-sealed>${record.giveaways_sealed}</dd>
<dt>${T.drawn}</dt><dd data-drawn>${record.giveaways_drawn}</dd>
<dt>${T.median}</dt><dd data-median>${median === null ? T.medianNone : T.medianValue(median)}</dd>
<dt>${T.replaced}</dt><dd data-replaced="${record.replacements.total}">${replacements(record)}</dd>
</dl></section>`;
}

function giveawayRow(g: OrganizerGiveaway): Html {
  return html`<tr data-giveaway="${g.public_id}"><td>${giveawayLink(g.public_id)} ${g.title ?? T.untitled}</td>
<td>${g.sealed_at ? time(g.sealed_at) : '—'}</td><td class="mono">${g.round ?? '—'}</td>
<td>${g.drawn_at ? time(g.drawn_at) : T.notDrawn}</td>
<td>${g.seconds_round_to_draw === null ? '—' : T.seconds(g.seconds_round_to_draw)}</td><td>${g.replacements}</td></tr>`;
}

function giveawaysSection(record: OrganizerRecord): Html {
  const shown = record.giveaways.slice(0, LISTED_MAX);
  return html`<section aria-labelledby="giveaways-heading"><h2 id="giveaways-heading">${T.giveawaysHeading}</h2>
<div class="table-wrap"><table><caption>${T.giveawaysCaption(shown.length, record.giveaways.length)}</caption>
<thead><tr>${T.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
<tbody>${shown.map(giveawayRow)}</tbody></table></div></section>`;
}

/** The page of /o/{owner}: red flags first (what a visitor came to learn), then the figures and the giveaways. */
export function renderOrganizerPage(record: OrganizerRecord): string {
  const json = `${organizerPath(record.owner)}.json`;
  const body = html`<main>
<header><p class="eyebrow">${T.eyebrow}</p><h1>${T.heading(record.owner)}</h1>
<p class="muted">${T.intro}</p></header>
${flagsSection(record)}
${summarySection(record)}
${giveawaysSection(record)}
<section aria-labelledby="how-heading"><h2 id="how-heading">${T.howHeading}</h2>
<p>${T.how(record.log_entries, record.last_log_index)} <code class="mono">${T.howCommand}</code>. <a href="${json}" type="application/json">${T.json}</a>.</p></section>
</main>
<footer><p>Tyche · <a href="/docs/draw-algorithm">${T.footerAlgorithm}</a> · <a href="/log/checkpoint">${T.footerLog}</a> · <a href="${json}">JSON</a></p></footer>`;
  const head = html`<meta name="description" content="${T.description(record.owner)}">
<link rel="alternate" type="application/json" href="${json}">`;
  return layout({ title: T.title(record.owner), body, head, style: PAGE_STYLE });
}

export function renderOrganizerNotFoundPage(owner: string): string {
  const body = html`<main><h1>${T.notFoundHeading}</h1><p>${T.notFoundText(owner)}</p>
<p><a href="/docs/draw-algorithm">${T.footerAlgorithm}</a></p></main>`;
  return layout({ title: T.notFoundTitle, body, style: PAGE_STYLE });
}
