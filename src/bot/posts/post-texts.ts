import type { Translate } from '../../i18n/catalogue.ts';
import { displayName, esc, utcMinute } from '../format.ts';
import type { AmendedEvent } from '../giveaway-port.ts';

/** The texts of a giveaway's channel posts (CONTRACT §11), in the channel's language. */

export interface PostedFields {
  title: string;
  description: string | null;
  winners: number;
  endsAt: number | null;
  count: number;
}

/** The post with the Join button; its count line is what the minute's edit changes. */
export function giveawayPost(t: Translate, g: PostedFields): string {
  return [
    `<b>${esc(g.title)}</b>`,
    ...(g.description ? ['', esc(g.description)] : []),
    '',
    t('post-winners', { winners: g.winners }),
    ...(g.endsAt === null ? [] : [t('post-ends', { ends: utcMinute(g.endsAt) })]),
    t('post-count', { count: g.count }),
    '',
    t('post-press-join'),
  ].join('\n');
}

export interface ClosedFields {
  title: string;
  count: number;
  root: string;
  round: number;
  roundAt: number;
  pageUrl: string;
  excluded: number;
}

/** At the seal: a timestamp in the channel, outside the service, of the list it committed to. */
export function closedPost(t: Translate, c: ClosedFields): string {
  const text = t('post-closed', {
    title: esc(c.title),
    count: c.count,
    root: c.root,
    round: String(c.round),
    due: utcMinute(c.roundAt),
    page: esc(c.pageUrl),
  });
  return c.excluded > 0 ? `${text}\n${t('post-closed-excluded', { excluded: c.excluded })}` : text;
}

export interface ResultsFields {
  title: string;
  winners: { position: number; username: string | null; telegram_id: number }[];
  verifyUrl: string;
}

/** Winners named in the post itself; the certificate lists them all (a message holds 4096 characters). */
const WINNERS_SHOWN = 50;

export function resultsPost(t: Translate, r: ResultsFields): string {
  const lines = r.winners
    .slice(0, WINNERS_SHOWN)
    .map((w) => t('post-winner', { position: w.position, name: displayName(w) }));
  if (r.winners.length > WINNERS_SHOWN) {
    lines.push(t('post-results-more', { more: r.winners.length - WINNERS_SHOWN }));
  }
  return t('post-results', { title: esc(r.title), winners: lines.join('\n'), url: esc(r.verifyUrl) });
}

/**
 * A replacement, in the channel that saw the results: who was replaced by whom, why, and where
 * the signed amendment is, so the re-draw is as public as the draw.
 */
export function amendedPost(t: Translate, a: AmendedEvent): string {
  const text = t('post-amended', {
    title: esc(a.title),
    position: a.position,
    old: displayName(a.replaced),
    new: displayName(a.substitute),
    reason: t(`reason-${a.reason}`),
    url: esc(a.verifyUrl),
  });
  return a.note ? `${text}\n${t('post-amended-note', { note: esc(a.note) })}` : text;
}
