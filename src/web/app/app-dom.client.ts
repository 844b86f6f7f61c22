// The Mini App's small DOM kit: elements built with textContent only (no string of the server's
// or a user's ever becomes markup), the words of the user's language, and local times.

import { useCheckWords } from '../check-list.ts';

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; text?: string; attrs?: Record<string, string> } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

export const $ = (id: string) => document.getElementById(id)!;

type Strings = Record<string, Record<string, string>>;
const all = JSON.parse($('app-strings').textContent ?? '{}') as Strings;
let language = 'en';
let words: Record<string, string> = all.en ?? {};

export function setLanguage(code: string): void {
  language = all[code] ? code : 'en';
  words = all[language];
  document.documentElement.lang = language;
  // The receipt checks speak it too (their words are among the app's, English has none).
  useCheckWords(words);
}

export const currentLanguage = () => language;

/** A message with its `{name}` placeholders filled; the key itself when the catalogue lacks it. */
export function t(key: string, vars: Record<string, string | number> = {}): string {
  const text = words[key] ?? all.en?.[key] ?? key;
  return text.replace(/\{([a-zA-Z]+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** An instant in the user's language and time zone. */
export function localTime(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Shows a message in the status line read out by screen readers. */
export function status(text: string, kind: '' | 'bad' = ''): void {
  const line = $('app-status');
  line.textContent = text;
  line.className = kind ? `status verdict ${kind}` : 'status';
}
