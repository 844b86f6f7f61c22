// The Mini App's words, from the same en/ru catalogue as the bot: every message of app.ftl, and
// the bot's names for statuses and replacement reasons, rendered once per language with each
// variable left as a `{name}` placeholder that the page fills in (as text, never as markup).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, type Language, LOCALES_DIR, translate } from '../../i18n/catalogue.ts';
import { AMENDMENT_REASONS } from '../../proof/amendments.ts';

export type AppStrings = Record<Language, Record<string, string>>;

/** The bot's messages the app shows too. */
const SHARED_KEYS = AMENDMENT_REASONS.map((reason) => `reason-${reason}`);

/** Each message id of a Fluent file with the variables its text uses. */
function messagesOf(source: string): Map<string, string[]> {
  const messages = new Map<string, string[]>();
  for (const block of source.split(/\n(?=[a-z][a-z0-9-]* =)/)) {
    const id = /^([a-z][a-z0-9-]*) =/.exec(block)?.[1];
    if (id) messages.set(id, [...new Set([...block.matchAll(/\$([a-zA-Z]+)/g)].map((m) => m[1]))]);
  }
  return messages;
}

function render(language: Language, key: string, variables: readonly string[]): string {
  return translate(language, key, Object.fromEntries(variables.map((v) => [v, `{${v}}`])));
}

/** Read once at start: the catalogue does not change while the process runs. */
export function loadAppStrings(): AppStrings {
  const out = {} as AppStrings;
  for (const language of LANGUAGES) {
    const own = messagesOf(readFileSync(join(LOCALES_DIR, language, 'app.ftl'), 'utf8'));
    const strings: Record<string, string> = {};
    for (const [key, variables] of own) strings[key] = render(language, key, variables);
    for (const key of SHARED_KEYS) strings[key] = render(language, key, []);
    out[language] = strings;
  }
  return out;
}
