// How the pages' scripts show a verifier's checks: one line each, passed, warning or FAILED, plus notes
// for what could not be asked (a relay that did not answer) without counting it as a failure.
// Browser only: it writes to the DOM, and only with textContent, so no check detail is ever markup.

import type { Check } from '../proof/report.ts';
import type { TokenVerdict } from '../proof/timestamp/timestamp-evidence.ts';

export interface ShownCheck {
  label: string;
  state: 'ok' | 'warn' | 'bad' | 'note';
  detail: string;
}

export const shownCheck = (check: Check): ShownCheck => ({
  label: check.label,
  state: !check.ok ? 'bad' : check.warning === undefined ? 'ok' : 'warn',
  detail: check.ok ? (check.warning ?? check.detail) : check.detail,
});

export const note = (label: string, detail: string): ShownCheck => ({ label, state: 'note', detail });

const MARK = { ok: '✓', warn: '!', bad: '✗', note: '•' } as const;
const SUFFIX = { ok: ': passed', warn: ': warning', bad: ': FAILED', note: '' } as const;

export function renderChecks(list: HTMLElement, checks: readonly ShownCheck[]): void {
  list.replaceChildren(
    ...checks.map((check) => {
      const item = document.createElement('li');
      item.className = `check ${check.state}`;
      const mark = document.createElement('span');
      mark.className = 'mark';
      mark.setAttribute('aria-hidden', 'true');
      mark.textContent = MARK[check.state];
      const label = document.createElement('strong');
      label.textContent = `${check.label}${SUFFIX[check.state]}`;
      const detail = document.createElement('span');
      detail.className = 'detail';
      detail.textContent = check.detail;
      item.append(mark, ' ', label, ' ', detail);
      return item;
    }),
  );
}

/** The JSON, or undefined for a 404; anything else is an error. */
export async function fetchJsonOr404(url: string): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    credentials: 'omit',
    cache: 'no-store',
  });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/** The JSON; a 404 is an error like any other failure. */
export async function fetchJson(url: string): Promise<unknown> {
  const json = await fetchJsonOr404(url);
  // JSON never parses to undefined: undefined is the 404.
  if (json === undefined) throw new Error(`${url} answered 404`);
  return json;
}

/** What a timestamp line says of a token (CONTRACT §13): not checked yet, valid, or why not. */
export function tokenState(verdict: TokenVerdict | undefined, by = ''): { text: string; className: string } {
  if (!verdict) return { text: 'not checked yet', className: 'stamp-state muted' };
  const name = verdict.tsaName ? ` (${verdict.tsaName})` : '';
  return verdict.ok
    ? { text: `valid${name}${by}`, className: 'stamp-state ok' }
    : { text: `not valid${by}: ${verdict.reason}`, className: 'stamp-state bad' };
}

/** Fills the page's timestamp lines (timestamp-lines.ts) with what this browser found of each token. */
export function fillTimestampLines(tokens: readonly TokenVerdict[] = []): void {
  for (const line of Array.from(document.querySelectorAll<HTMLElement>('[data-stamp-of]'))) {
    const verdict = tokens.find(
      (t) => t.of === line.dataset.stampOf && String(t.index) === line.dataset.stampIndex,
    );
    const shown = line.querySelector('.stamp-state');
    if (!shown) continue;
    const state = tokenState(verdict, verdict ? ', checked in your browser' : '');
    shown.textContent = state.text;
    shown.className = state.className;
  }
}

/**
 * The page's own words for its script, rendered by the server in the page's language as a JSON
 * block (`<script type="application/json" id="page-text">`), each with `{name}` slots to fill.
 */
export function pageText<K extends string>(
  fallback: Record<K, string>,
): (key: K, vars?: Record<string, string | number>) => string {
  let given: Partial<Record<K, string>> = {};
  try {
    given = JSON.parse(document.getElementById('page-text')?.textContent ?? '{}') as Partial<
      Record<K, string>
    >;
  } catch {
    given = {};
  }
  return (key, vars = {}) =>
    (given[key] ?? fallback[key]).replace(/\{([a-zA-Z]+)\}/g, (slot, name: string) =>
      name in vars ? String(vars[name]) : slot,
    );
}
