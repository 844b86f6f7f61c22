import { type Html, html } from '../edge/html.ts';

// Visible strings, kept here to move into the pages' catalogue.
const ORGANIZER_LABEL = 'Organizer';
const RECORD_LINK_TEXT = "the organizer's record";
const RECORD_LINK_TITLE =
  'Every giveaway this organizer sealed and drew, how they replaced winners, and any red flag, from the transparency log';

/** Where an owner pseudonym's record is (CONTRACT §14 "/o/{owner}"). */
export const organizerPath = (owner: string) => `/o/${encodeURIComponent(owner)}`;

/** " · the organizer's record", to follow an owner pseudonym shown on a page; nothing without one. */
export function organizerLink(owner: string | null | undefined): Html | string {
  if (!owner) return '';
  return html` · <a href="${organizerPath(owner)}" title="${RECORD_LINK_TITLE}" data-organizer-link>${RECORD_LINK_TEXT}</a>`;
}

/** A definition-list row naming the organizer by pseudonym, with the link to their record. */
export function organizerRow(owner: string | null | undefined): Html | string {
  if (!owner) return '';
  return html`<dt>${ORGANIZER_LABEL}</dt><dd><code class="mono">${owner}</code>${organizerLink(owner)}</dd>`;
}
