// The life of a draw in one line of steps, on /g and /verify: sealed → the committed round →
// drawn → each amendment. Steps still to come are shown as such, so a visitor sees where the
// giveaway stands before reading any of the evidence.

import { type Html, html } from '../edge/html.ts';
import type { PageLocale } from './page-language.ts';
import { time } from './page-parts.ts';

export interface TimelineStep {
  /** A catalogue key: timeline-created, timeline-sealed, timeline-round, timeline-drawn, timeline-amended. */
  key: string;
  at: string | null;
  done: boolean;
  vars?: Record<string, string | number>;
}

export const TIMELINE_STYLE = `
.timeline{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.4rem}
.timeline li{flex:1 1 9rem;border:1px solid var(--line);border-top:4px solid var(--line);border-radius:.4rem;padding:.35rem .6rem;font-size:.9rem}
.timeline li.done{border-top-color:var(--ok)}.timeline li.next{border-top-color:var(--warn)}
.timeline .step{display:block;font-weight:600}`;

export function timeline(steps: readonly TimelineStep[], { t }: PageLocale): Html {
  const firstOpen = steps.findIndex((s) => !s.done);
  const items = steps.map((s, i) => {
    const state = s.done ? 'done' : i === firstOpen ? 'next' : 'todo';
    const when = s.at ? time(s.at) : html`<span class="muted">${t('timeline-not-yet')}</span>`;
    return html`<li class="${state}" data-step="${s.key}"><span class="step">${t(s.key, s.vars)}</span>${when}</li>`;
  });
  return html`<ol class="timeline" aria-label="${t('timeline-label')}">${items}</ol>`;
}
