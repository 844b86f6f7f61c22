import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FluentBundle, FluentResource, type FluentVariable } from '@fluent/bundle';
import type { Context, MiddlewareFn } from 'grammy';

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

type TranslationVariables = Record<string, FluentVariable>;

/**
 * One Fluent bundle per language, every file of its folder in it. Bidi isolation marks are off:
 * every placeable is Latin or Cyrillic text, and the marks would show in Telegram's monospace
 * entities and break copied ids.
 */
function loadBundle(language: Language): FluentBundle {
  const bundle = new FluentBundle(language, { useIsolating: false });
  const folder = join(LOCALES_DIR, language);
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.ftl'))
    .sort()) {
    const errors = bundle.addResource(new FluentResource(readFileSync(join(folder, file), 'utf8')));
    if (errors.length > 0) throw new Error(`${language}/${file}: ${errors.map(String).join('; ')}`);
  }
  return bundle;
}

const bundles = new Map(LANGUAGES.map((language) => [language, loadBundle(language)]));

/**
 * A message of the catalogue in a given language, for texts sent outside an update; a key the
 * language lacks falls back to English, and a key no language has reads `{key}` (a test keeps
 * both languages complete).
 */
export function translate(language: Language, key: string, variables?: TranslationVariables): string {
  for (const bundle of [bundles.get(language), bundles.get('en')]) {
    const message = bundle?.getMessage(key);
    if (message?.value) return bundle!.formatPattern(message.value, variables);
  }
  return `{${key}}`;
}

/**
 * What the catalogue reads of an update: the language chosen for it. Named here rather than taken
 * from context.ts, whose BotContext is built on this module's Language.
 */
type LanguageContext = Context & { language: Language; t: Translate };

/** The bot's handlers get `ctx.t`, which always speaks the update's current `ctx.language`. */
export const catalogueMiddleware: MiddlewareFn<LanguageContext> = (ctx, next) => {
  ctx.t = (key, variables) => translate(ctx.language, key, variables);
  return next();
};

/** A translator bound to one language. */
export type Translate = (key: string, variables?: TranslationVariables) => string;
export const translatorFor =
  (language: Language): Translate =>
  (key, variables) =>
    translate(language, key, variables);

/** Numbers the pages print as names, not amounts (a round, a position): never with a group separator. */
const IDENTIFIER_VARIABLES = new Set([
  'round',
  'after',
  'index',
  'sequence',
  'position',
  'place',
  'reserve',
  'last',
]);

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
