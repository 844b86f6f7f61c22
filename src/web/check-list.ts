// How the pages' scripts show a verifier's checks: one line each, passed, warning or FAILED, plus notes
// for what could not be asked (a relay that did not answer) without counting it as a failure.
// Browser only: it writes to the DOM, and only with textContent, so no check detail is ever markup.

import { fillSlots, type Params } from '../proof/check-phrases.ts';
import type { Check } from '../proof/report.ts';
import type { TokenVerdict } from '../proof/timestamp/timestamp-evidence.ts';

export interface ShownCheck {
  label: string;
  state: 'ok' | 'warn' | 'bad' | 'note';
  detail: string;
}

/**
 * The checks' words in the page's language, by catalogue key (check-text.ts): from the page's
 * `#check-text` block, or given by a page that has its own (the Mini App). None on an English
 * page: there a check reads exactly as the CLI prints it.
 */
let checkWords: Record<string, string> | undefined;

export function useCheckWords(words: Record<string, string>): void {
  checkWords = words;
}

function words(): Record<string, string> {
  if (checkWords === undefined) {
    const block = typeof document === 'undefined' ? null : document.getElementById('check-text');
    try {
      checkWords = block?.textContent ? (JSON.parse(block.textContent) as Record<string, string>) : {};
    } catch {
      checkWords = {};
    }
  }
  return checkWords;
}

/** A check word in the page's language with its slots filled, or the English given. */
export function checkWord(key: string, params: Params, english: string): string {
  const template = words()[key];
  return template === undefined ? english : fillSlots(template, params);
}

/** A check as the page shows it: label and detail said by their codes, the English where none. */
export const shownCheck = (check: Check): ShownCheck => {
  const english = check.ok ? (check.warning ?? check.detail) : check.detail;
  const { says } = check;
  const params = says?.params ?? {};
  return {
    label: says ? checkWord(`chk-label-${says.label}`, params, check.label) : check.label,
    state: !check.ok ? 'bad' : check.warning === undefined ? 'ok' : 'warn',
    detail: says?.detail ? checkWord(`chk-${says.detail}`, params, english) : english,
  };
};

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
      const suffix =
        check.state === 'note' ? '' : checkWord(`chk-state-${check.state}`, {}, SUFFIX[check.state]);
      label.textContent = `${check.label}${suffix}`;
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
