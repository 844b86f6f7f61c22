// The Mini App's words, from the same en/ru catalogue as the bot: every message of app.ftl, the
// bot's names for statuses and replacement reasons, and the receipt checks' words of pages.ftl,
// rendered once per language with each variable left as a `{name}` placeholder that the page
// fills in (as text, never as markup).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, type Language, LOCALES_DIR } from '../../i18n/catalogue.ts';
import { AMENDMENT_REASONS } from '../../proof/amendments.ts';
import { checkWords, messagesOf, withSlots } from '../check-text.ts';

export type AppStrings = Record<Language, Record<string, string>>;

/** The bot's messages the app shows too. */
const SHARED_KEYS = AMENDMENT_REASONS.map((reason) => `reason-${reason}`);

/** Read once at start: the catalogue does not change while the process runs. */
export function loadAppStrings(): AppStrings {
  const out = {} as AppStrings;
  for (const language of LANGUAGES) {
    const own = messagesOf(readFileSync(join(LOCALES_DIR, language, 'app.ftl'), 'utf8'));
    const strings: Record<string, string> = {};
    for (const [key, variables] of own) strings[key] = withSlots(language, key, variables);
    for (const key of SHARED_KEYS) strings[key] = withSlots(language, key, []);
    // The receipt checks' words, as the public pages have them; English checks read as the CLI's.
    if (language !== 'en') Object.assign(strings, checkWords(language));
    out[language] = strings;
  }
  return out;
}
