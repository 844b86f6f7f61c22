import type { Font, Glyph } from 'fontkit';

// A PDF maps each glyph to one piece of text (ToUnicode), and pdfkit takes it from the first
// character that used the glyph. Arabic fonts draw many letters from one shared dotless body
// plus dot marks, so copying an Arabic title out of the PDF would give the wrong letters. For
// right-to-left words this view of a font gives the first drawn glyph the whole word (in the
// visual order that PDF readers turn back into reading order) and the other glyphs no text, as
// a ligature would; a glyph used with different text gets its own copy in the embedded subset.

const WORD_JOINER = 0x2060;

interface WordGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

interface FontSubset {
  glyphs: number[];
  includeGlyph(glyph: number): number;
  encode(): Uint8Array;
}

/** A per-document view of `font` for drawing right-to-left words whose text survives copying. */
export function wordFont(font: Font): Font {
  const ids = new Map<string, number>();
  const realGlyph: number[] = [];
  const idFor = (glyph: Glyph, codePoints: number[]) => {
    const key = `${glyph.id}:${codePoints.join(',')}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = realGlyph.length;
      realGlyph.push(glyph.id);
      ids.set(key, id);
    }
    return id;
  };
  const layout = (text: string, features?: Record<string, boolean> | string[]) => {
    const run = font.layout(text, features);
    // Reversed: readers gather glyph text in drawing order, then reverse right-to-left runs.
    const visual = [...text].reverse().map((c) => c.codePointAt(0) as number);
    const inked = run.glyphs.filter((g) => g.advanceWidth > 0).length;
    let next = 0;
    const texts = run.glyphs.map((g) => {
      // Each glyph that advances takes one character, the last one all that remain; marks
      // (dots, vowel signs) take an invisible WORD JOINER: a glyph with no text at all would be
      // read as its glyph number, and format characters are what readers drop.
      if (g.advanceWidth <= 0 || next >= visual.length) return [WORD_JOINER];
      const taken = next >= inked - 1 ? visual.slice(next) : [visual[next]];
      next += taken.length;
      return taken;
    });
    if (next < visual.length && texts.length > 0) texts[0] = visual;
    const glyphs: WordGlyph[] = run.glyphs.map((g, i) => ({
      id: idFor(g, texts[i]),
      advanceWidth: g.advanceWidth,
      codePoints: texts[i],
    }));
    return { glyphs, positions: run.positions, advanceWidth: run.advanceWidth };
  };
  const createSubset = () => {
    const subset = font.createSubset() as unknown as FontSubset;
    const cids = new Map<number, number>();
    return {
      get cff() {
        return (subset as unknown as { cff?: unknown }).cff;
      },
      includeGlyph(id: number) {
        let cid = cids.get(id);
        if (cid === undefined) {
          // Bypasses the subset's own de-duplication on purpose: one outline, several texts.
          subset.glyphs.push(realGlyph[id] ?? 0);
          cid = subset.glyphs.length - 1;
          cids.set(id, cid);
        }
        return cid;
      },
      encode: () => subset.encode(),
    };
  };
  return new Proxy(font, {
    get(target, property) {
      if (property === 'layout') return layout;
      if (property === 'createSubset') return createSubset;
      // pdfkit reuses an open font of the same name; this view must stay a font of its own.
      if (property === 'postscriptName') return `${target.postscriptName}-Words`;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
