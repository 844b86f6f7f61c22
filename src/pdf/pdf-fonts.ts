import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { create, type Font } from 'fontkit';
import { createKeptResults } from '../shared/kept-results.ts';
import { staticFontFromWoff2 } from './font-files.ts';

// pdfkit draws each string with one font and has no fallback, so text is split by which font
// has a glyph for it. The fonts are the Noto families packaged per Unicode range slice: only
// the slices a certificate's text touches are ever read, once per process.

export type FontStyle = 'regular' | 'bold' | 'mono';

/** One static font file, ready for pdfkit (`key` is unique per file and weight). */
export interface Face {
  key: string;
  font: Font;
}

interface Family {
  id: string;
  pkg: string;
  /** Variable families are pinned to the style's weight; static ones have a single weight. */
  variable: boolean;
  slices?: Slice[];
  index?: RangeIndex;
}

interface Slice {
  name: string;
  file: string;
}

/** Every slice's ranges, sorted by start, with a running maximum of ends to stop the scan. */
interface RangeIndex {
  starts: number[];
  ends: number[];
  slice: number[];
  maxEnd: number[];
}

const family = (id: string, pkg: string, variable = true): Family => ({ id, pkg, variable });
const SANS = family('noto-sans', '@fontsource-variable/noto-sans');
const MONO = family('noto-sans-mono', '@fontsource-variable/noto-sans-mono');
const SCRIPTS = [
  family('noto-sans-arabic', '@fontsource-variable/noto-sans-arabic'),
  family('noto-sans-hebrew', '@fontsource-variable/noto-sans-hebrew'),
  family('noto-sans-thai', '@fontsource-variable/noto-sans-thai'),
  family('noto-sans-georgian', '@fontsource-variable/noto-sans-georgian'),
  family('noto-sans-armenian', '@fontsource-variable/noto-sans-armenian'),
];
const CJK = {
  sc: family('noto-sans-sc', '@fontsource-variable/noto-sans-sc'),
  jp: family('noto-sans-jp', '@fontsource-variable/noto-sans-jp'),
  kr: family('noto-sans-kr', '@fontsource-variable/noto-sans-kr'),
};
const SYMBOLS = [
  family('noto-sans-symbols', '@fontsource-variable/noto-sans-symbols'),
  family('noto-sans-symbols-2', '@fontsource/noto-sans-symbols-2', false),
];
const EMOJI = family('noto-emoji', '@fontsource-variable/noto-emoji');

const WEIGHT: Record<FontStyle, number> = { regular: 400, bold: 700, mono: 400 };

/** Which CJK font draws Han characters first: the one of the text's own language. */
export type CjkHint = 'sc' | 'jp' | 'kr';

export function cjkHint(text: string): CjkHint {
  if (/[\u3040-\u30ff\u31f0-\u31ff]/u.test(text)) return 'jp';
  if (/[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u.test(text)) return 'kr';
  return 'sc';
}

function chain(style: FontStyle, hint: CjkHint, emojiFirst: boolean): Family[] {
  const cjk =
    hint === 'jp'
      ? [CJK.jp, CJK.sc, CJK.kr]
      : hint === 'kr'
        ? [CJK.kr, CJK.sc, CJK.jp]
        : [CJK.sc, CJK.jp, CJK.kr];
  const text = [...(style === 'mono' ? [MONO] : []), SANS, ...SCRIPTS, ...cjk, ...SYMBOLS];
  return emojiFirst ? [EMOJI, ...text] : [...text, EMOJI];
}

const require = createRequire(import.meta.url);

function parseRange(range: string): [number, number] | undefined {
  const m = /^U\+([0-9a-f?]+)(?:-([0-9a-f]+))?$/i.exec(range.trim());
  if (!m) return undefined;
  const start = Number.parseInt(m[1].replace(/\?/g, '0'), 16);
  const end = m[2] ? Number.parseInt(m[2], 16) : Number.parseInt(m[1].replace(/\?/g, 'f'), 16);
  return [start, end];
}

function slicesOf(f: Family): { slices: Slice[]; index: RangeIndex } {
  if (f.slices && f.index) return { slices: f.slices, index: f.index };
  const unicodeJson = require.resolve(`${f.pkg}/unicode.json`);
  const ranges = JSON.parse(readFileSync(unicodeJson, 'utf8')) as Record<string, string>;
  const files = join(dirname(unicodeJson), 'files');
  const slices: Slice[] = [];
  const intervals: [number, number, number][] = [];
  for (const [key, value] of Object.entries(ranges)) {
    const name = key.replace(/^\[(\d+)\]$/, '$1');
    const file = join(files, `${f.id}-${name}-${f.variable ? 'wght' : '400'}-normal.woff2`);
    slices.push({ name, file });
    for (const part of value.split(',')) {
      const range = parseRange(part);
      if (range) intervals.push([range[0], range[1], slices.length - 1]);
    }
  }
  intervals.sort((a, b) => a[0] - b[0]);
  const index: RangeIndex = { starts: [], ends: [], slice: [], maxEnd: [] };
  let maxEnd = -1;
  for (const [start, end, slice] of intervals) {
    maxEnd = Math.max(maxEnd, end);
    index.starts.push(start);
    index.ends.push(end);
    index.slice.push(slice);
    index.maxEnd.push(maxEnd);
  }
  f.slices = slices;
  f.index = index;
  return { slices, index };
}

/** The slices whose declared ranges contain `cp`, in the package's order. */
function slicesFor(f: Family, cp: number): number[] {
  const { index } = slicesOf(f);
  let lo = 0;
  let hi = index.starts.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (index.starts[mid] <= cp) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const found: number[] = [];
  for (let i = last; i >= 0 && index.maxEnd[i] >= cp; i--) {
    if (index.ends[i] >= cp && !found.includes(index.slice[i])) found.push(index.slice[i]);
  }
  return found.sort((a, b) => a - b);
}

// Bounded: a title can touch many CJK slices, and a long-running server meets many titles.
const MAX_LOADED = 96;
const loaded = createKeptResults<Face>(MAX_LOADED);

function loadFace(f: Family, slice: Slice, weight: number): Promise<Face> {
  const key = `${f.id}-${slice.name}-${f.variable ? weight : 400}`;
  return loaded.get(key, async () => {
    const bytes = await staticFontFromWoff2(await readFile(slice.file), { wght: weight, wdth: 100 });
    const font = create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (!('layout' in font)) throw new Error(`${slice.file} is a font collection`);
    return { key, font };
  });
}

// Joiners and selectors ask for a presentation; a font without them can still draw the rest.
export const isIgnorable = (cp: number) =>
  (cp >= 0x200b && cp <= 0x200f) ||
  (cp >= 0x2060 && cp <= 0x2064) ||
  (cp >= 0xfe00 && cp <= 0xfe0f) ||
  (cp >= 0xe0000 && cp <= 0xe0fff);

const EMOJI_FIRST = /\p{Emoji_Presentation}|\ufe0f|\u20e3/u;

interface Choice {
  family: Family;
  slice: number;
}

async function firstCovering(
  families: Family[],
  points: number[],
  weight: number,
): Promise<Choice | undefined> {
  if (points.length === 0) return undefined;
  for (const f of families) {
    const candidates = points.map((cp) => slicesFor(f, cp));
    const slices = candidates[0].filter((s) => candidates.every((c) => c.includes(s)));
    for (const slice of slices) {
      const face = await loadFace(f, slicesOf(f).slices[slice], weight);
      if (points.every((cp) => face.font.hasGlyphForCodePoint(cp))) return { family: f, slice };
    }
  }
  return undefined;
}

// Choices, not faces: a remembered choice must not keep an evicted font alive.
const chosen = new Map<string, Choice | null>();

/**
 * The face that draws a grapheme cluster: the first in the style's chain with a glyph for every
 * code point, else for every visible one, else for the first; undefined when no font has it.
 */
export async function faceFor(cluster: string, style: FontStyle, hint: CjkHint): Promise<Face | undefined> {
  const memo = `${style}\u0000${hint}\u0000${cluster}`;
  let choice = chosen.get(memo);
  const weight = WEIGHT[style];
  if (choice === undefined) {
    const families = chain(style, hint, EMOJI_FIRST.test(cluster));
    const points = [...cluster].map((c) => c.codePointAt(0) as number);
    choice =
      (await firstCovering(families, points, weight)) ??
      (await firstCovering(
        families,
        points.filter((cp) => !isIgnorable(cp)),
        weight,
      )) ??
      // No font has the whole cluster: at least its base character is drawn.
      (await firstCovering(families, points.slice(0, 1), weight)) ??
      null;
    if (chosen.size > 8192) chosen.clear();
    chosen.set(memo, choice);
  }
  return choice ? loadFace(choice.family, slicesOf(choice.family).slices[choice.slice], weight) : undefined;
}

/** The face used for text that must appear whatever the content (ellipsis, missing glyphs). */
export function primaryFace(style: FontStyle): Promise<Face> {
  const f = style === 'mono' ? MONO : SANS;
  const { slices } = slicesOf(f);
  return loadFace(f, slices.find((s) => s.name === 'latin') ?? slices[0], WEIGHT[style]);
}
