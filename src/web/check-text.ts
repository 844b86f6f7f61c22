// The checks' words for the pages' scripts (check-list.ts): every `chk-` message of pages.ftl in
// the page's language, each variable left as a `{name}` slot that the script fills with the
// values a check carries (proof/check-phrases.ts). An English page gets none: its checks read
// exactly as the CLI prints them.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Html, html } from '../edge/html.ts';
import { type Language, LOCALES_DIR, translate } from '../i18n/catalogue.ts';
import type { PageLocale } from './page-language.ts';

/** Each message id of a Fluent source with the variables its text uses. */
export function messagesOf(source: string): Map<string, string[]> {
  const messages = new Map<string, string[]>();
  for (const block of source.split(/\n(?=[a-z][a-z0-9-]* =)/)) {
    const id = /^([a-z][a-z0-9-]*) =/.exec(block)?.[1];
    if (id) messages.set(id, [...new Set([...block.matchAll(/\$([a-zA-Z]+)/g)].map((m) => m[1]))]);
  }
  return messages;
}

/** A message with each variable as its `{name}` slot. */
export const withSlots = (language: Language, key: string, variables: readonly string[]): string =>
  translate(language, key, Object.fromEntries(variables.map((v) => [v, `{${v}}`])));

const rendered = new Map<Language, Record<string, string>>();

/** Every check word of one language; read once, the catalogue does not change while running. */
export function checkWords(language: Language): Record<string, string> {
  let words = rendered.get(language);
  if (!words) {
    const source = readFileSync(join(LOCALES_DIR, language, 'pages.ftl'), 'utf8');
    words = {};
    for (const [key, variables] of messagesOf(source)) {
      if (key.startsWith('chk-')) words[key] = withSlots(language, key, variables);
    }
    rendered.set(language, words);
  }
  return words;
}

/** The page's `#check-text` block, for any language but English. */
export function checkTextBlock({ lang }: PageLocale): Html | string {
  if (lang === 'en') return '';
  const json = JSON.stringify(checkWords(lang)).replaceAll('<', '\\u003c');
  return html`<script type="application/json" id="check-text">${new Html(json)}</script>`;
}
