// The answer a visitor of /g came for, at the top once drawn: who won, who the reserves are (in
// order), as Telegram's own giveaway results show them, and the button to check the draw. The
// names are those of the published certificate (as amended); a winner without a username is shown
// by the first name they joined with.

import { type Html, html } from '../edge/html.ts';
import type { AnyCertificate } from '../giveaways/results/giveaway.views.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { amendmentsOf, winnersAsAmended } from '../proof/amendment-history.ts';
import { ALGORITHM_V2, type CertificateV2 } from '../proof/v2-types.ts';
import { type PageLocale, pageHref } from './page-language.ts';
import { logEntry } from './page-parts.ts';

export type { AnyCertificate };
export type FirstNames = ReadonlyMap<number, string>;

interface Person {
  position: number;
  telegram_id: number;
  username: string | null;
}

/** "@alice", else the first name, else a plain word: never a bare dash. */
export function personName(
  p: Pick<Person, 'telegram_id' | 'username'>,
  names: FirstNames,
  { t }: PageLocale,
): string {
  if (p.username) return `@${p.username}`;
  return names.get(p.telegram_id) ?? t('person-no-name');
}

function peopleList(
  kind: 'winner' | 'reserve',
  people: readonly Person[],
  names: FirstNames,
  l: PageLocale,
): Html {
  const items = people.map(
    (p, i) =>
      html`<li data-top-${kind}="${i + 1}" data-telegram-id="${p.telegram_id}"><span class="who">${personName(p, names, l)}</span></li>`,
  );
  return html`<ol class="people" id="top-${kind}s">${items}</ol>`;
}

/** Every person the page names, so the route can look their first names up in one query. */
export function namedPeople(cert: AnyCertificate | undefined): number[] {
  if (!cert) return [];
  const v2 = cert.algorithm === ALGORITHM_V2 ? (cert as CertificateV2) : undefined;
  return [...cert.winners, ...(v2?.reserves ?? [])].map((w) => w.telegram_id);
}

export function resultsSection(
  g: PublicGiveaway,
  cert: AnyCertificate | undefined,
  names: FirstNames,
  l: PageLocale,
): Html | string {
  const { t } = l;
  if (g.status !== 'completed' || !g.verify_url) return '';
  const verify = html`<p><a class="button" href="${pageHref(l, g.verify_url)}" data-certificate-link>${t('g-check-draw')}</a></p>`;
  if (!cert) {
    return html`<section class="results" aria-labelledby="result-heading"><h2 id="result-heading">${t('g-results-heading')}</h2>
<p>${t('g-drawn-see-certificate')}</p>${verify}</section>`;
  }
  const v2 = cert.algorithm === ALGORITHM_V2 ? (cert as CertificateV2) : undefined;
  const amendments = v2 ? amendmentsOf(cert) : [];
  const winners = v2 && amendments.length > 0 ? winnersAsAmended(v2, amendments) : cert.winners;
  const reserves = v2?.reserves ?? [];
  const usedReserves = new Set(amendments.map((a) => a.by?.index));
  const left = reserves.filter((r) => !usedReserves.has(r.index));
  const amendedNote =
    amendments.length > 0
      ? html`<p class="muted" data-amended>${t('g-results-amended', { count: amendments.length })}</p>`
      : '';
  const reserveBlock =
    left.length > 0
      ? html`<h3 id="reserves-top-heading">${t('g-reserves-heading', { count: left.length })}</h3>
<p class="muted">${t('g-reserves-explain')}</p>${peopleList('reserve', left, names, l)}`
      : '';
  return html`<section class="results" aria-labelledby="result-heading" id="results"><h2 id="result-heading">${t('g-winners-heading', { count: winners.length })}</h2>
${peopleList('winner', winners, names, l)}${amendedNote}${reserveBlock}
${verify}
${g.certificate_log_index === null ? '' : html`<p class="muted">${t('g-certificate-logged')} ${logEntry({ log_index: g.certificate_log_index }, 'log_index', l)}.</p>`}
${g.draw_mode === 'instant' ? html`<p class="notice">${t('g-instant-notice')}</p>` : ''}</section>`;
}
