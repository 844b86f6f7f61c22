import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FluentResource } from '@fluent/bundle';
import { COMMANDS } from '../../src/bot/commands.ts';
import type { RedFlagKind } from '../../src/giveaways/results/organizer-record.ts';
import { LANGUAGES, LOCALES_DIR, translate } from '../../src/i18n/catalogue.ts';
import { AMENDMENT_REASONS } from '../../src/proof/amendments.ts';
import { CHECK_DETAILS } from '../../src/proof/check-phrases.ts';
import { CHECK_LABEL_CODES } from '../helpers/check-codes.ts';

/** The Fluent files of one language: one per area (bot, app, pages), or the named one alone. */
function catalogueFiles(language: string, only?: string): string[] {
  const dir = join(LOCALES_DIR, language);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ftl') && (only === undefined || name === only))
    .map((name) => join(dir, name));
}

/** Every message of one language's catalogue (or of one of its files), with the variables it uses. */
function catalogue(language: string, only?: string): Map<string, Set<string>> {
  const source = catalogueFiles(language, only)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const resource = new FluentResource(source);
  const messages = new Map<string, Set<string>>();
  // The resource keeps ids; the variables are read from each message's own lines.
  const blocks = source.split(/\n(?=[a-z][a-z0-9-]* =)/);
  for (const entry of resource.body) {
    const block = blocks.find((b) => b.startsWith(`${entry.id} =`)) ?? '';
    messages.set(entry.id, new Set([...block.matchAll(/\$([a-zA-Z]+)/g)].map((m) => m[1])));
  }
  return messages;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Keys the code builds from a list rather than names literally, by family. */
const DYNAMIC: Record<string, readonly string[]> = {
  'cmd-': COMMANDS,
  'new-ask-': ['title', 'description', 'winners', 'ends', 'channel', 'required'],
  'giveaway-status-': ['active', 'sealing', 'sealed', 'completed'],
  'status-': ['active', 'sealing', 'sealed', 'completed'],
  'reason-': AMENDMENT_REASONS,
};

test('every language has the same catalogue files', () => {
  const names = (language: string) =>
    catalogueFiles(language).map((file) => file.slice(file.lastIndexOf('/') + 1));
  for (const language of LANGUAGES) assert.deepEqual(names(language), names(LANGUAGES[0]), language);
});

test('both catalogues hold the same messages with the same variables', () => {
  const [first, ...others] = LANGUAGES.map((l) => [l, catalogue(l)] as const);
  for (const [language, messages] of others) {
    const missing = [...first[1].keys()].filter((k) => !messages.has(k));
    const extra = [...messages.keys()].filter((k) => !first[1].has(k));
    assert.deepEqual(missing, [], `missing in ${language}/`);
    assert.deepEqual(extra, [], `only in ${language}/`);
    for (const [key, variables] of first[1]) {
      assert.deepEqual(
        [...messages.get(key)!].sort(),
        [...variables].sort(),
        `variables of ${key} in ${language}`,
      );
    }
  }
});

test("every message the bot's code names exists in every language, and every bot message is used", () => {
  const code = sourceFiles(join(import.meta.dirname, '../../src/bot'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const named = new Set(
    [...code.matchAll(/(?:\bt|translate\([^,()]+,)\s*\(?\s*'([a-z][a-z0-9-]+)'/g)].map((m) => m[1]),
  );
  // Keys passed on as values (`key: 'new-bad-title'`) and chosen by a ternary are named too.
  for (const m of code.matchAll(
    /'((?:new|join|post|revoke|draw|my|key|status|giveaway|challenge|welcome|plan|receipt|language|business|console|label|something|winner|joined|help|claim|replace|manage)-[a-z0-9-]+|joined)'/g,
  )) {
    named.add(m[1]);
  }
  for (const [prefix, values] of Object.entries(DYNAMIC)) for (const v of values) named.add(`${prefix}${v}`);
  for (const language of LANGUAGES) {
    const messages = catalogue(language, 'bot.ftl');
    const unknown = [...named].filter((k) => !messages.has(k));
    assert.deepEqual(unknown, [], `named in the code but not in ${language}/bot.ftl`);
    const unused = [...messages.keys()].filter((k) => !named.has(k));
    assert.deepEqual(unused, [], `in ${language}/bot.ftl but never used`);
  }
});

/** The pages' code: the public pages, the PDF and the error table (the Mini App has its own file, app.ftl). */
function pagesCode(): string {
  const src = join(import.meta.dirname, '../../src');
  return [
    ...sourceFiles(join(src, 'web')),
    ...sourceFiles(join(src, 'pdf')),
    join(src, 'http/routes/docs.routes.ts'),
  ]
    .filter((file) => !file.includes(`${join(src, 'web', 'app')}/`))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** The kinds of red flag an organizer's record names (RedFlagKind). */
const RED_FLAGS = ['multiple_seals', 'shared_round', 'reserve_order'] satisfies RedFlagKind[];

/** Keys the pages build from a list rather than name literally. */
const PAGES_DYNAMIC: Record<string, readonly string[]> = {
  'g-status-': ['active', 'sealing', 'sealed', 'completed'],
  'reason-': AMENDMENT_REASONS,
  'o-flag-': RED_FLAGS,
  'o-flag-why-': RED_FLAGS,
  // The check lines' words, said by the codes a check carries (proof/check-phrases.ts).
  'chk-': [...Object.keys(CHECK_DETAILS), 'state-ok', 'state-warn', 'state-bad'],
  'chk-label-': CHECK_LABEL_CODES,
};

test('every message the pages name exists in every language, and every pages message is used', () => {
  const code = pagesCode();
  // Named for sure: t('key'), t(cond ? 'a' : 'b'), and the browser texts' `key: 'rc-…'`.
  const named = new Set([
    ...[...code.matchAll(/\bt\(\s*'([a-z][a-z0-9-]+)'/g)].map((m) => m[1]),
    ...[...code.matchAll(/\bt\([^()]*\?\s*'([a-z][a-z0-9-]+)'\s*:\s*'([a-z][a-z0-9-]+)'/g)].flatMap((m) => [
      m[1],
      m[2],
    ]),
    ...[...code.matchAll(/\bkey: '([a-z][a-z0-9-]+)'/g)].map((m) => m[1]),
  ]);
  for (const [prefix, values] of Object.entries(PAGES_DYNAMIC))
    for (const v of values) named.add(`${prefix}${v}`);
  // Used: any literal that spells a key (keys also travel as values, as the timeline's steps do).
  const literals = new Set([...code.matchAll(/'([a-z][a-z0-9]*-[a-z0-9-]+)'/g)].map((m) => m[1]));
  for (const language of LANGUAGES) {
    const all = catalogue(language);
    const unknown = [...named].filter((k) => !all.has(k));
    assert.deepEqual(unknown, [], `named in the pages' code but not in ${language}/`);
    const pages = catalogue(language, 'pages.ftl');
    const unused = [...pages.keys()].filter((k) => !named.has(k) && !literals.has(k));
    assert.deepEqual(unused, [], `in ${language}/pages.ftl but never used`);
  }
});

test('pages speak Russian plurals too', () => {
  assert.equal(translate('ru', 'g-entrants-count', { count: 1 }), '1 участник');
  assert.equal(translate('ru', 'g-entrants-count', { count: 3 }), '3 участника');
  assert.equal(translate('ru', 'g-entrants-count', { count: 11 }), '11 участников');
  assert.equal(translate('en', 'g-then-reserves', { reserves: 1 }), 'then 1 reserve');
  assert.equal(translate('en', 'g-then-reserves', { reserves: 2 }), 'then 2 reserves in order');
});

test('a Russian message uses Russian plural forms', () => {
  assert.match(translate('ru', 'post-winners', { winners: 1 }), /^1 победитель,/);
  assert.match(translate('ru', 'post-winners', { winners: 3 }), /^3 победителя,/);
  assert.match(translate('ru', 'post-winners', { winners: 5 }), /^5 победителей,/);
  assert.match(translate('en', 'post-winners', { winners: 1 }), /^1 winner,/);
  assert.match(translate('en', 'post-winners', { winners: 5 }), /^5 winners,/);
});
