import { join } from 'node:path';
import { I18n, type TranslationVariables } from '@grammyjs/i18n';
import type { Context } from 'grammy';

/** The languages of the catalogue in ./locales: one folder each, one Fluent file per area (bot, app, pages). */
export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The user's choice when they made one, else Russian for any `ru*` language_code, else English. */
export function languageOf(chosen: string | null | undefined, languageCode: string | undefined): Language {
  if (isLanguage(chosen)) return chosen;
  return languageCode?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

export const LOCALES_DIR = join(import.meta.dirname, 'locales');

/**
 * What the catalogue reads of an update: the language chosen for it. Named here rather than taken
 * from context.ts, whose BotContext is built on this module's Language.
 */
type LanguageContext = Context & { language: Language };

/**
 * One catalogue for handlers (`ctx.t`) and background work (`translate`). Bidi isolation marks
 * are off: every placeable is Latin or Cyrillic text, and the marks would show in Telegram's
 * monospace entities and break copied ids.
 */
export const i18n = new I18n<LanguageContext>({
  defaultLocale: 'en',
  directory: LOCALES_DIR,
  fluentBundleOptions: { useIsolating: false },
  localeNegotiator: (ctx) => ctx.language,
});

/** A message of the catalogue in a given language, for texts sent outside an update. */
export function translate(language: Language, key: string, variables?: TranslationVariables): string {
  return i18n.t(language, key, variables);
}

/** A translator bound to one language. */
export type Translate = (key: string, variables?: TranslationVariables) => string;
export const translatorFor =
  (language: Language): Translate =>
  (key, variables) =>
    translate(language, key, variables);

/** Numbers the pages print as names, not amounts (a round, a position): never with a group separator. */
const IDENTIFIER_VARIABLES = new Set(['round', 'after', 'index', 'sequence', 'position', 'place', 'reserve']);

/**
 * A translator for the public pages and the PDF: like translatorFor, but a drand round or a
 * position reads "round 5123456", not "round 5,123,456" (Fluent groups every number it formats).
 */
export const pagesTranslatorFor =
  (language: Language): Translate =>
  (key, variables) =>
    translate(
      language,
      key,
      variables &&
        Object.fromEntries(
          Object.entries(variables).map(([name, value]) => [
            name,
            IDENTIFIER_VARIABLES.has(name) && typeof value === 'number' ? String(value) : value,
          ]),
        ),
    );
