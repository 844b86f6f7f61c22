// The owner's side of the app (CONTRACT §15): their giveaways; one giveaway's state with close and
// draw, entrants over time, those excluded at the seal, winners, reserves and replacements, the
// public links and the CSV. Every call is the account's own; the server refuses any other.

import { ApiProblem, api } from './app-api.client.ts';
import { buzz, open, setBack } from './app-bridge.client.ts';
import { $, el, localTime, status, t } from './app-dom.client.ts';
import { entrantChart } from './entrant-chart.client.ts';
import { giveawayCard, stateRow } from './giveaway-card.client.ts';
import { newGiveawayForm } from './owner-form.client.ts';

const REASONS = ['left_channel', 'unclaimed', 'ineligible', 'duplicate_account', 'other'] as const;

// biome-ignore lint/suspicious/noExplicitAny: the server's JSON, read field by field
type Json = any;

const path = (publicId: string, rest = '') => `/app/api/giveaways/${encodeURIComponent(publicId)}${rest}`;
const nameOf = (w: { username: string | null; telegram_id: number }) =>
  w.username ? `@${w.username}` : `id ${w.telegram_id}`;

/** A section of a giveaway's detail, under its heading. */
const panel = (id: string, heading: string, ...children: (HTMLElement | null)[]) =>
  el('section', { class: 'panel', attrs: { id } }, el('h3', { text: heading }), ...children);

export function createOwnerView() {
  const view = $('app-view');

  async function list(): Promise<void> {
    setBack(undefined);
    status(t('app-loading'));
    const page = await api('/app/api/giveaways');
    status('');
    const create = el('button', { text: t('app-new'), attrs: { type: 'button', id: 'new-giveaway-button' } });
    create.addEventListener('click', () => showForm());
    const cards = (page.giveaways as Json[]).map((g) =>
      giveawayCard(
        { 'data-giveaway': g.public_id },
        g.title,
        stateRow('span', g.status, t('app-entrants', { count: g.participants_count })),
        null,
        () => void detail(g.public_id),
      ),
    );
    view.replaceChildren(
      el('p', { class: 'actions' }, create),
      cards.length > 0
        ? el('ul', { class: 'list', attrs: { 'aria-label': t('app-tab-giveaways') } }, ...cards)
        : el('p', { class: 'hint', text: t('app-giveaways-none') }),
    );
  }

  function showForm(): void {
    setBack(() => void list());
    view.replaceChildren(newGiveawayForm((created) => void detail(created.public_id, false)));
    view.querySelector<HTMLInputElement>('#field-title')?.focus();
  }

  async function detail(publicId: string, clearStatus = true): Promise<void> {
    setBack(() => void list());
    if (clearStatus) status(t('app-loading'));
    render(await api(path(publicId)));
    if (clearStatus) status('');
  }

  function stateLine(g: Json): string {
    if (g.status === 'active') return t('app-state-open-info', { count: g.participants_count });
    if (g.status === 'sealing') return t('app-sealing-info');
    if (g.status === 'sealed' && g.seal) {
      return t('app-sealed-info', {
        count: g.seal.entrants.count,
        round: g.seal.beacon.round,
        time: localTime(g.seal.beacon.round_at),
      });
    }
    return t('app-drawn-info', { time: localTime(g.drawn_at) });
  }

  function action(label: string, id: string, run: () => Promise<Json>): HTMLButtonElement {
    const button = el('button', { text: label, attrs: { type: 'button', id } });
    button.addEventListener('click', async () => {
      for (const b of Array.from(view.querySelectorAll('button'))) b.disabled = true;
      status(t('app-working'));
      try {
        const out = await run();
        buzz('success');
        render(out.detail ?? out);
        status('');
      } catch (error) {
        buzz('error');
        status(t('app-error', { detail: (error as Error).message }), 'bad');
        for (const b of Array.from(view.querySelectorAll('button'))) b.disabled = false;
      }
    });
    return button;
  }

  function render(d: Json): void {
    const g = d.giveaway;
    const id = g.public_id;
    const actions = el('p', { class: 'actions' });
    if (g.status === 'active') {
      actions.append(action(t('app-seal'), 'seal-button', () => api(path(id, '/seal'), { method: 'POST' })));
    }
    if (g.status === 'active' || g.status === 'sealed') {
      actions.append(action(t('app-draw'), 'draw-button', () => api(path(id, '/draw'), { method: 'POST' })));
    }
    const parts: (HTMLElement | null)[] = [
      el('h2', { text: g.title }),
      stateRow('p', g.status, t('app-entrants', { count: g.participants_count })),
      el('p', { attrs: { id: 'giveaway-state' }, text: stateLine(g) }),
      actions,
      el('section', { class: 'panel' }, el('h3', { text: t('app-chart-head') }), entrantChart(d.series)),
      excluded(d.excluded),
      winners(d, id),
      links(d.links),
      csvButton(id),
    ];
    view.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  function excluded(list: { reason: string; count: number }[]): HTMLElement | null {
    if (list.length === 0) return null;
    return panel(
      'excluded',
      t('app-excluded-head'),
      el(
        'ul',
        {},
        ...list.map((x) =>
          el('li', { text: t('app-excluded-item', { reason: t(`reason-${x.reason}`), count: x.count }) }),
        ),
      ),
    );
  }

  function winners(d: Json, publicId: string): HTMLElement | null {
    const standing = d.standing;
    if (!standing) return null;
    const items = (standing.winners as Json[]).map((w) => {
      const state = w.claimedAt
        ? t('app-winner-claimed')
        : w.deadline
          ? t('app-winner-claim-by', { time: localTime(w.deadline) })
          : '';
      const item = el(
        'li',
        {},
        el('strong', { text: `#${w.position} ${nameOf(w)}` }),
        state ? el('span', { class: 'hint', text: ` · ${state}` }) : null,
      );
      if (standing.reservesLeft > 0 && !w.claimedAt) {
        const replace = el('button', {
          class: 'danger',
          text: t('app-replace'),
          attrs: { type: 'button', 'data-replace': String(w.position) },
        });
        replace.addEventListener('click', () => item.append(reasons(publicId, w, item)));
        item.append(el('div', {}, replace));
      }
      return item;
    });
    const reserves = (d.giveaway.reserves ?? []) as Json[];
    const amendments = (d.giveaway.amendments ?? []) as Json[];
    return panel(
      'winners',
      t('app-winners-head'),
      el('ul', { class: 'list winners' }, ...items),
      standing.reservesLeft === 0 && reserves.length > 0
        ? el('p', { class: 'hint', text: t('app-no-reserves') })
        : null,
      reserves.length > 0 ? el('h3', { text: t('app-reserves-head') }) : null,
      reserves.length > 0 ? el('ol', {}, ...reserves.map((r) => el('li', { text: nameOf(r) }))) : null,
      amendments.length > 0 ? el('h3', { text: t('app-amendments-head') }) : null,
      amendments.length > 0
        ? el(
            'ul',
            {},
            ...amendments.map((a) =>
              el('li', {
                text: t('app-amendment-item', {
                  position: a.position,
                  reserve: a.by.reserve_position,
                  reason: t(`reason-${a.reason}`),
                }),
              }),
            ),
          )
        : null,
    );
  }

  function reasons(publicId: string, w: Json, item: HTMLElement): HTMLElement {
    item.querySelector('.reasons')?.remove();
    const box = el('div', { class: 'reasons', attrs: { role: 'group', 'aria-label': t('app-replace') } });
    box.append(el('p', { text: t('app-replace-ask', { position: w.position, name: nameOf(w) }) }));
    for (const reason of REASONS) {
      box.append(
        action(t(`reason-${reason}`), `replace-${reason}`, () =>
          api(path(publicId, `/winners/${w.position}/replace`), { method: 'POST', body: { reason } }),
        ),
      );
    }
    const cancel = el('button', { class: 'secondary', text: t('app-cancel'), attrs: { type: 'button' } });
    cancel.addEventListener('click', () => box.remove());
    box.append(cancel);
    return box;
  }

  function links(l: { page: string; verify: string | null; post: string | null }): HTMLElement {
    const rows = [
      [t('app-link-page'), l.page],
      [t('app-link-verify'), l.verify],
      [t('app-link-post'), l.post],
    ].filter((r): r is [string, string] => typeof r[1] === 'string');
    return panel(
      'links',
      t('app-links-head'),
      el(
        'ul',
        { class: 'list links' },
        ...rows.map(([label, url]) => {
          const link = el('a', { text: label, attrs: { href: url, target: '_blank', rel: 'noopener' } });
          link.addEventListener('click', (event) => {
            event.preventDefault();
            open(url);
          });
          const copy = el('button', {
            class: 'secondary',
            text: t('app-copy'),
            attrs: { type: 'button', 'aria-label': `${t('app-copy')}: ${label}` },
          });
          copy.addEventListener('click', async () => {
            await navigator.clipboard?.writeText(url).catch(() => {});
            copy.textContent = t('app-copied');
            buzz('success');
          });
          return el('li', {}, link, copy);
        }),
      ),
    );
  }

  function csvButton(publicId: string): HTMLElement {
    const button = el('button', {
      class: 'secondary',
      text: t('app-csv'),
      attrs: { type: 'button', id: 'csv-button' },
    });
    button.addEventListener('click', async () => {
      try {
        const link = await api(path(publicId, '/csv-link'), { method: 'POST' });
        open(link.url);
      } catch (error) {
        status(
          t('app-error', { detail: error instanceof ApiProblem ? error.message : String(error) }),
          'bad',
        );
      }
    });
    return el('p', { class: 'actions' }, button);
  }

  return { list, detail };
}
