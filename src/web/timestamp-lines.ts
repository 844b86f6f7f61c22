// The RFC 3161 timestamps a page shows beside the seal's witness line and the certificate's log
// entry (CONTRACT §13): each token's TSA, its time in UTC, and whether it is valid. The pages'
// scripts fill "valid" once they have checked the token in the browser (check-list.ts); without
// JavaScript a line says "not checked yet". The /g page, which has no check of its own, shows
// this server's check.

import { etagOf } from '../edge/etag.ts';
import { type Html, html } from '../edge/html.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { isRecord } from '../proof/report.ts';
import type { StampedKind, TokenVerdict } from '../proof/timestamp/timestamp-evidence.ts';
import { createKeptResults } from '../shared/kept-results.ts';
import { tokenState } from './check-list.ts';
import { localeFor, type PageLocale } from './page-language.ts';
import { time } from './page-parts.ts';

/**
 * The tokens a document carries for its seal or certificate, one line each, or why there are none.
 * `verdicts` when this server has checked them itself (said so on each line).
 */
export function timestampLines(
  stamps: unknown,
  of: StampedKind,
  verdicts?: readonly TokenVerdict[],
  { t }: PageLocale = localeFor('en'),
): Html {
  const list = Array.isArray(stamps) ? stamps.filter(isRecord) : [];
  if (list.length === 0) {
    const none = t(of === 'seal' ? 'stamps-none-seal' : 'stamps-none-certificate');
    return html`<span class="muted" data-stamps-none="${of}">${none}</span>`;
  }
  const items = list.map((stamp, index) => {
    const state = tokenState(
      verdicts?.find((v) => v.of === of && v.index === index),
      verdicts ? `, ${t('stamps-checked-by-server')}` : '',
    );
    const at =
      typeof stamp.gen_time === 'string'
        ? time(stamp.gen_time)
        : html`<span class="muted">${t('stamps-no-time')}</span>`;
    return html`<li data-stamp-of="${of}" data-stamp-index="${index}"><code class="mono">${String(stamp.tsa)}</code>, ${at}: <span class="${state.className}">${state.text}</span></li>`;
  });
  return html`<ul class="stamps">${items}</ul>`;
}

/** Seals whose token verdicts a process keeps (a few KB each). */
const CHECKED_SEALS_KEPT = 500;

/**
 * The /g page's own check of its seal's tokens (the shipped roots and TYCHE_TSA_TRUST): the page
 * says nobody could know the winners only when outside evidence backs the seal's time. Verdicts
 * are kept per seal and token list, so a page viewed again costs no signature check; a token
 * added later, or any byte changed in the store, is a new key and is checked afresh.
 */
export function createSealTokenCheck(tsaTrust: string | undefined) {
  const kept = createKeptResults<TokenVerdict[]>(CHECKED_SEALS_KEPT);
  return async (g: PublicGiveaway): Promise<TokenVerdict[]> => {
    const seal = g.seal;
    if (!seal || g.seal_timestamps.length === 0) return [];
    return kept.get(etagOf(JSON.stringify([seal, g.seal_timestamps])), async () => {
      // Loaded on the first seal with tokens: the X.509 library stays out of a server that never shows one.
      const { timestampEvidence } = await import('../proof/timestamp/timestamp-evidence.ts');
      const found = await timestampEvidence({
        seal,
        sealTimestamps: g.seal_timestamps,
        tsaTrust: tsaTrust === undefined ? [] : [tsaTrust],
      });
      return found.tokens;
    });
  };
}
