import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES, translate } from '../../src/i18n/catalogue.ts';
import { RECEIPT_TEXT_KEYS } from '../../src/web/receipt-text.ts';

const slots = (text: string) => [...text.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]).sort();

test("the receipt script's words: each in every language with its slots, the English fallback the catalogue's", () => {
  for (const [name, { key, slots: named, en }] of Object.entries(RECEIPT_TEXT_KEYS)) {
    assert.deepEqual(slots(en), [...named].sort(), name);
    // Each slot filled with its own name in braces, so the text can be compared with the fallback.
    const asSlots = Object.fromEntries(named.map((slot) => [slot, `{${slot}}`]));
    assert.equal(translate('en', key, asSlots), en, name);
    for (const language of LANGUAGES) {
      const said = translate(language, key, asSlots);
      assert.notEqual(said, `{${key}}`, `${key} is missing in ${language}`);
      assert.deepEqual(slots(said), [...named].sort(), `${key} in ${language}`);
    }
  }
});
