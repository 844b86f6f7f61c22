import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { pinAxes, sfntTables, staticFontFromWoff2 } from '../../src/pdf/font-files.ts';
import { cjkHint, faceFor, primaryFace } from '../../src/pdf/pdf-fonts.ts';
import { bidiClass, visualOrder } from '../../src/pdf/text-bidi.ts';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The text in visual order (left to right) for a paragraph of direction `base`. */
function visual(text: string, base: 0 | 1): string {
  const clusters = [...graphemes.segment(text)].map((s) => s.segment);
  const { order } = visualOrder(clusters.map(bidiClass), base);
  return order.map((i) => clusters[i]).join('');
}

describe('font choice per character', () => {
  test('each script goes to the family that draws it, and CJK follows the text’s language', async () => {
    const cases: [string, 'regular' | 'bold' | 'mono', string, RegExp][] = [
      ['A', 'regular', 'x', /^noto-sans-latin-400$/],
      ['Я', 'bold', 'x', /^noto-sans-cyrillic-700$/],
      ['Ω', 'regular', 'x', /^noto-sans-greek-400$/],
      ['ش', 'regular', 'x', /^noto-sans-arabic-arabic-400$/],
      ['ש', 'regular', 'x', /^noto-sans-hebrew-hebrew-400$/],
      ['ก', 'regular', 'x', /^noto-sans-thai-/],
      ['中', 'regular', '中文', /^noto-sans-sc-\d+-400$/],
      ['中', 'regular', '日本の中', /^noto-sans-jp-\d+-400$/],
      ['한', 'bold', '한국', /^noto-sans-kr-\d+-700$/],
      ['🎁', 'regular', 'x', /^noto-emoji-\d+-400$/],
      ['👨‍👩‍👧', 'regular', 'x', /^noto-emoji-\d+-400$/],
      ['♔', 'regular', 'x', /^noto-sans-symbols-2-/],
      ['⚙', 'regular', 'x', /^noto-sans-symbols-symbols-/],
      ['0', 'mono', 'x', /^noto-sans-mono-latin-400$/],
    ];
    for (const [cluster, style, context, expected] of cases) {
      const face = await faceFor(cluster, style, cjkHint(context));
      assert.match(face?.key ?? 'none', expected, cluster);
      for (const c of cluster.replace(/\u200d/g, '')) {
        assert.ok(face?.font.hasGlyphForCodePoint(c.codePointAt(0) as number), `${cluster}: ${c}`);
      }
    }
    assert.equal(await faceFor('𓀀', 'regular', 'sc'), undefined, 'no packaged font has hieroglyphs');
  });

  test('a font file is read once per process and shared by every document', async () => {
    const first = await faceFor('Z', 'regular', 'sc');
    const again = await faceFor('z', 'regular', 'sc');
    assert.ok(first && again);
    assert.equal(first.font, again.font);
    assert.equal(first, await primaryFace('regular'));
  });

  test('variable fonts are pinned to the weight of the style', async () => {
    const regular = await primaryFace('regular');
    const bold = await primaryFace('bold');
    const weight = (face: typeof regular) =>
      (face.font as unknown as { 'OS/2': { usWeightClass: number } })['OS/2'].usWeightClass;
    assert.equal(weight(regular), 400);
    assert.equal(weight(bold), 700);
    for (const face of [regular, bold]) {
      assert.deepEqual(face.font.variationAxes, {}, 'no axis is left');
    }
    const a = (face: typeof regular) => face.font.glyphForCodePoint(0x41).path.bbox;
    assert.ok(a(bold).width > a(regular).width, 'a bold A is wider than a regular one');
  });

  test('a static WOFF2 file is decoded without instancing', async () => {
    const file = createRequire(import.meta.url).resolve(
      '@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff2',
    );
    const font = await staticFontFromWoff2(await readFile(file), { wght: 700 });
    const tables = sfntTables(font);
    assert.ok(tables.includes('glyf') && tables.includes('cmap'));
    assert.ok(!tables.includes('fvar'));
    await assert.rejects(pinAxes(new Uint8Array(64), { wght: 400 }), /HarfBuzz/);
  });
});

// Expected orders follow UAX #9 by hand: strong letters set the runs, numbers after right-to-left
// text stay left to right inside it, neutrals between two equal directions take it.
describe('bidirectional line order', () => {
  test('left-to-right text is untouched', () => {
    assert.equal(visual('Giveaway 2025: win!', 0), 'Giveaway 2025: win!');
  });

  test('a right-to-left paragraph reads from the right, numbers keep their own order', () => {
    assert.equal(visual('אבג', 1), 'גבא');
    assert.equal(visual('אבג דהו', 1), 'והד גבא');
    assert.equal(visual('אבג 123', 1), '123 גבא');
    assert.equal(visual('אבג!', 1), '!גבא');
  });

  test('a right-to-left phrase inside left-to-right text is reversed as a whole', () => {
    assert.equal(visual('abc אבג דהו def', 0), 'abc והד גבא def');
    assert.equal(visual('win אבג 2025 now', 0), 'win 2025 גבא now');
    assert.equal(visual('@محمد', 0), '@دمحم');
  });

  test('letters are classed by script, digits and the rest apart', () => {
    assert.deepEqual(['a', 'Я', '中', 'ש', 'ب', '7', '٣', ' ', '!', '🎁', ''].map(bidiClass), [
      'L',
      'L',
      'L',
      'R',
      'R',
      'EN',
      'EN',
      'N',
      'N',
      'N',
      'N',
    ]);
  });
});
