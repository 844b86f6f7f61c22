// How the app shows a giveaway at a glance, on both sides: its state badge with the one fact that
// matters to the reader (their entry number, or the entrants so far), in a list card or under a
// detail's heading.

import { el, t } from './app-dom.client.ts';

const stateBadge = (state: string) => el('span', { class: `badge ${state}`, text: t(`app-state-${state}`) });

/** The state badge, the reader's fact beside it, and anything else that belongs on that line. */
export const stateRow = (tag: 'p' | 'span', state: string, fact: string, ...more: HTMLElement[]) =>
  el(tag, { class: 'row' }, stateBadge(state), el('span', { text: fact }), ...more);

/** One giveaway in a list: its title and state row, a hint if any; opens its detail. */
export function giveawayCard(
  data: Record<string, string>,
  title: string,
  row: HTMLElement,
  hint: HTMLElement | null,
  open: () => void,
): HTMLLIElement {
  const card = el(
    'button',
    { class: 'card', attrs: { type: 'button', ...data } },
    el('strong', { text: title }),
    row,
    hint,
  );
  card.addEventListener('click', open);
  return el('li', {}, card);
}
