// The entrant's side of the app (CONTRACT §15): their entries, and for each one the receipt checked
// here, check by check, "did I win" computed here, the certificate, its amendments, and Claim.

import type { ShownCheck } from '../check-list.ts';
import { noteWord } from '../check-notes.ts';
import { ApiProblem, api } from './app-api.client.ts';
import { buzz, open, setBack } from './app-bridge.client.ts';
import { $, el, localTime, status, t } from './app-dom.client.ts';
import type { AppEntry } from './app-entrant.ts';
import { giveawayCard, stateRow } from './giveaway-card.client.ts';
import { checkReceipt, type Said } from './receipt-steps.client.ts';

const MARK = { ok: '✓', warn: '!', bad: '✗', note: '•' } as const;
const SUFFIX = { ok: 'app-check-ok', warn: 'app-check-warn', bad: 'app-check-bad', note: '' } as const;

/** A Said in words: nested Saids said in place, reasons named, instants in local time. */
export function say(said: Said): string {
  const vars: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(said.vars ?? {})) {
    if (typeof value === 'object') vars[name] = say(value);
    else if (typeof value === 'string' && value.startsWith('reason-')) vars[name] = t(value);
    else if (name === 'time') vars[name] = localTime(value);
    else vars[name] = value;
  }
  return t(said.key, vars);
}

function checkItem(check: ShownCheck): HTMLLIElement {
  const suffix = SUFFIX[check.state] ? `: ${t(SUFFIX[check.state])}` : '';
  return el(
    'li',
    { class: `check ${check.state} appear` },
    el('span', { class: 'mark', text: MARK[check.state], attrs: { 'aria-hidden': 'true' } }),
    el('strong', { text: `${check.label}${suffix}` }),
    el('span', { class: 'detail', text: check.detail }),
  );
}

export function createEntrantView(user: { telegram_id: number }) {
  const view = $('app-view');
  let entries: AppEntry[] = [];

  async function list(focus?: string): Promise<void> {
    setBack(undefined);
    status(t('app-loading'));
    entries = ((await api('/app/api/entries')) as { entries: AppEntry[] }).entries;
    status('');
    const focused = focus ? entries.find((e) => e.public_id === focus) : undefined;
    if (focused) return detail(focused);
    if (entries.length === 0) {
      view.replaceChildren(el('p', { class: 'hint', text: t('app-entries-none') }));
      return;
    }
    view.replaceChildren(
      el(
        'ul',
        { class: 'list', attrs: { 'aria-label': t('app-tab-entries') } },
        ...entries.map((entry) =>
          giveawayCard(
            { 'data-entry': entry.public_id },
            entry.title,
            stateRow('span', entry.status, t('app-entry-number', { entry: entry.entry_number })),
            entry.claim?.claimed_at
              ? el('span', { class: 'hint', text: claimedOn(entry.claim.claimed_at) })
              : entry.excluded
                ? el('span', {
                    class: 'hint',
                    text: t('app-excluded', { reason: t(`reason-${entry.excluded}`) }),
                  })
                : entry.ends_at && entry.status === 'active'
                  ? el('span', { class: 'hint', text: t('app-ends-at', { time: localTime(entry.ends_at) }) })
                  : null,
            () => void detail(entry),
          ),
        ),
      ),
    );
  }

  async function detail(entry: AppEntry): Promise<void> {
    setBack(() => void list());
    const outcome = el('p', { class: 'outcome', text: t('app-checking'), attrs: { id: 'entry-outcome' } });
    const place = el('p', { attrs: { id: 'entry-place' } });
    const verdict = el('p', { class: 'verdict', attrs: { id: 'entry-verdict', 'aria-live': 'polite' } });
    const checks = el('ul', { class: 'checks', attrs: { id: 'entry-checks' } });
    // Open while the checks arrive; once every one passed they fold under the verdict, so the
    // links below need no scrolling past a screenful of passed checks. A failure or warning stays open.
    const fold = el(
      'details',
      { attrs: { id: 'entry-checks-fold', open: '' } },
      el('summary', { text: t('app-checks-head') }),
      checks,
    );
    const claim = el('div', { attrs: { id: 'entry-claim' } });
    const amendments = el('div', { attrs: { id: 'entry-amendments' } });
    const links = el('p', { class: 'actions' });
    if (entry.receipt_url) links.append(linkButton(t('app-receipt-page'), entry.receipt_url));
    if (entry.verify_url) links.append(linkButton(t('app-certificate'), entry.verify_url));
    view.replaceChildren(
      el('h2', { text: entry.title }),
      stateRow(
        'p',
        entry.status,
        t('app-entry-number', { entry: entry.entry_number }),
        el('span', { class: 'hint', text: t('app-joined-at', { time: localTime(entry.joined_at) }) }),
      ),
      el(
        'section',
        { class: 'panel', attrs: { 'aria-labelledby': 'did-i-win' } },
        el('h3', { text: t('app-did-i-win'), attrs: { id: 'did-i-win' } }),
        outcome,
        place,
        claim,
      ),
      verdict,
      fold,
      amendments,
      links,
    );
    // A prize claimed before (here, in the bot or by the owner) is said at once, never offered again.
    const claimedAt = entry.claim?.claimed_at;
    if (claimedAt) claim.replaceChildren(claimedLine(claimedAt));
    if (entry.excluded || !entry.salt) {
      outcome.textContent = t('app-excluded', { reason: t(`reason-${entry.excluded ?? 'other'}`) });
      return;
    }
    const shown: ShownCheck[] = [];
    try {
      const result = await checkReceipt(
        { public_id: entry.public_id, salt: entry.salt },
        user.telegram_id,
        (group) => {
          shown.push(...group);
          checks.append(...group.map(checkItem));
        },
      );
      outcome.textContent = say(result.outcome);
      outcome.className = result.outcome.won ? 'outcome won' : 'outcome';
      if (result.place)
        place.textContent = t('app-place', { place: result.place.index + 1, count: result.place.count });
      if (result.amendments.length > 0) {
        amendments.replaceChildren(
          el('h3', { text: t('app-amendments-head') }),
          el(
            'ul',
            {},
            ...result.amendments.map((a) =>
              el('li', {
                text: t('app-amendment-item', {
                  position: a.position,
                  reserve: a.reserve,
                  reason: t(`reason-${a.reason}`),
                }),
              }),
            ),
          ),
        );
      }
      if (!claimedAt && result.outcome.won && result.outcome.position && entry.status === 'completed') {
        claim.replaceChildren(claimButton(entry, result.outcome.position));
      }
    } catch (error) {
      outcome.textContent = t('app-error', { detail: (error as Error).message });
      shown.push({ label: noteWord('checkLabel'), state: 'bad', detail: (error as Error).message });
    }
    const counted = shown.filter((c) => c.state !== 'note');
    const failed = counted.filter((c) => c.state === 'bad').length;
    const warned = counted.some((c) => c.state === 'warn');
    verdict.textContent =
      failed > 0
        ? t('app-verdict-bad', { failed, total: counted.length })
        : t(warned ? 'app-verdict-warn' : 'app-verdict-ok');
    verdict.className = `verdict ${failed > 0 ? 'bad' : warned ? 'warn' : 'ok'}`;
    fold.open = failed > 0 || warned;
    buzz(failed > 0 ? 'error' : 'success');
  }

  function claimButton(entry: AppEntry, position: number): HTMLElement {
    const button = el('button', { text: t('app-claim'), attrs: { type: 'button', id: 'claim-button' } });
    const said = el('p', { attrs: { role: 'status' } });
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const claimed = await api(
          `/app/api/entries/${encodeURIComponent(entry.public_id)}/winners/${position}/claim`,
          { method: 'POST' },
        );
        said.textContent = claimedOn(claimed.claimed_at);
        button.hidden = true;
        entry.claim = { position, claimed_at: claimed.claimed_at, deadline: claimed.claim_deadline };
        buzz('success');
      } catch (error) {
        said.textContent = t('app-error', {
          detail: error instanceof ApiProblem ? error.message : String(error),
        });
        button.disabled = false;
        buzz('error');
      }
    });
    return el('div', {}, button, said);
  }

  return { list };
}

const claimedOn = (at: string) => t('app-claimed-on', { time: localTime(at) });
const claimedLine = (at: string) =>
  el('p', { class: 'claimed', text: claimedOn(at), attrs: { role: 'status', 'data-claimed-at': at } });

export function linkButton(text: string, url: string): HTMLAnchorElement {
  const link = el('a', {
    class: 'button secondary',
    text,
    attrs: { href: url, target: '_blank', rel: 'noopener' },
  });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    open(url);
  });
  return link;
}
