import {
  type CjkHint,
  cjkHint,
  type Face,
  type FontStyle,
  faceFor,
  isIgnorable,
  primaryFace,
} from './pdf-fonts.ts';
import { wordFont } from './pdf-word-font.ts';
import { type BidiClass, bidiClass, visualOrder } from './text-bidi.ts';

export interface TextBox {
  x: number;
  y: number;
  width: number;
  style: FontStyle;
  size: number;
  /** Further lines are cut and the last one ends with an ellipsis. */
  maxLines?: number;
  align?: 'left' | 'center' | 'right';
  lineHeight?: number;
  /**
   * The paragraph direction: left to right (labels, table cells, an `@name`) or, for free text
   * such as a title, that of its first letter.
   */
  direction?: 'ltr' | 'auto';
}

interface Cluster {
  text: string;
  face: Face;
  bidi: BidiClass;
  space: boolean;
  newline: boolean;
  /** A line may break before this cluster even without a space (CJK, emoji). */
  breakBefore: boolean;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const WIDE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef\p{Extended_Pictographic}]/u;

function advance(face: Face, text: string, size: number): number {
  return (face.font.layout(text).advanceWidth * size) / face.font.unitsPerEm;
}

async function clustersOf(text: string, style: FontStyle, hint: CjkHint): Promise<Cluster[]> {
  const out: Cluster[] = [];
  let previous: Cluster | undefined;
  for (const { segment } of graphemes.segment(text)) {
    const newline = segment === '\n';
    const space = !newline && /^\s+$/u.test(segment);
    const raw = space ? ' ' : newline ? '' : segment;
    const face = (await faceFor(raw, style, hint)) ?? (await primaryFace(style));
    const drawn = [...raw]
      .filter((c) => {
        const cp = c.codePointAt(0) as number;
        return !isIgnorable(cp) || face.font.hasGlyphForCodePoint(cp);
      })
      .join('');
    const cluster: Cluster = {
      text: drawn,
      face,
      bidi: bidiClass(raw),
      space,
      newline,
      breakBefore: WIDE.test(raw) || (previous !== undefined && WIDE.test(previous.text)),
    };
    out.push(cluster);
    previous = cluster;
  }
  return out;
}

/** Width of clusters drawn as runs of one face (shaping and kerning happen within a run). */
function runWidth(clusters: Cluster[], size: number): number {
  let width = 0;
  let start = 0;
  for (let i = 1; i <= clusters.length; i++) {
    if (i === clusters.length || clusters[i].face !== clusters[start].face) {
      const text = clusters
        .slice(start, i)
        .map((c) => c.text)
        .join('');
      width += advance(clusters[start].face, text, size);
      start = i;
    }
  }
  return width;
}

function trimEnd(line: Cluster[]): Cluster[] {
  let end = line.length;
  while (end > 0 && line[end - 1].space) end--;
  return line.slice(0, end);
}

/** How many clusters from the start fit in `width` (at least one), by bisection. */
function fitting(clusters: Cluster[], width: number, size: number): number {
  let lo = 1;
  let hi = clusters.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (runWidth(trimEnd(clusters.slice(0, mid)), size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Greedy line filling at spaces and CJK boundaries; a word longer than a line is cut anywhere.
 * Stops once there are more than `maxLines` lines: the rest would be cut anyway.
 */
function wrap(
  clusters: Cluster[],
  width: number,
  size: number,
  maxLines = Number.POSITIVE_INFINITY,
): Cluster[][] {
  const words: Cluster[][] = [];
  for (const c of clusters) {
    const last = words.at(-1);
    const previous = last?.at(-1);
    const starts =
      !previous || c.newline || previous.newline || (previous.space && !c.space) || c.breakBefore;
    if (starts) words.push([c]);
    else last?.push(c);
  }
  const lines: Cluster[][] = [[]];
  for (const word of words) {
    if (lines.length > maxLines) break;
    if (word[0].newline) {
      lines.push([]);
      continue;
    }
    let line = lines.at(-1) as Cluster[];
    if (line.length > 0 && runWidth(trimEnd([...line, ...word]), size) > width) {
      line = [];
      lines.push(line);
    }
    line.push(...word);
    if (runWidth(trimEnd(line), size) <= width) continue;
    // The line holds this word alone and it still overflows: cut it between clusters.
    lines.pop();
    let rest = word;
    while (rest.length > 0 && lines.length <= maxLines) {
      const n = fitting(rest, width, size);
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
  }
  return lines.map(trimEnd);
}

async function ellipsize(line: Cluster[], width: number, style: FontStyle, size: number): Promise<Cluster[]> {
  const face = await primaryFace(style);
  const dots: Cluster = { text: '…', face, bidi: 'N', space: false, newline: false, breakBefore: false };
  const kept = [...line];
  while (kept.length > 0 && runWidth([...kept, dots], size) > width) kept.pop();
  return [...trimEnd(kept), dots];
}

interface Piece {
  face: Face;
  text: string;
  /** Advance only: spaces between right-to-left words. */
  blank: boolean;
  /** A right-to-left word: drawn with the face's word view so its text copies correctly. */
  word: boolean;
}

/**
 * Runs of one face and one direction in visual order. A right-to-left run is handed to fontkit
 * in logical order, word by word: fontkit shapes and reverses it, pdfkit lays words out left to
 * right, so reversing a multi-word run must happen here.
 */
function piecesOf(line: Cluster[], base: 0 | 1): Piece[] {
  const { order, levels } = visualOrder(
    line.map((c) => c.bidi),
    base,
  );
  const pieces: Piece[] = [];
  let i = 0;
  while (i < order.length) {
    let j = i + 1;
    const first = line[order[i]];
    while (j < order.length && line[order[j]].face === first.face && levels[order[j]] === levels[order[i]])
      j++;
    const group = order.slice(i, j).map((k) => line[k]);
    if (levels[order[i]] % 2 === 0) {
      pieces.push({ face: first.face, text: group.map((c) => c.text).join(''), blank: false, word: false });
    } else if (!group.some((c) => c.bidi === 'R')) {
      for (const c of group) pieces.push({ face: c.face, text: c.text, blank: c.space, word: false });
    } else {
      let word: Cluster[] = [];
      const flush = () => {
        if (word.length > 0)
          pieces.push({
            face: first.face,
            text: word
              .reverse()
              .map((c) => c.text)
              .join(''),
            blank: false,
            word: true,
          });
        word = [];
      };
      for (const c of group) {
        if (c.space) {
          flush();
          pieces.push({ face: c.face, text: c.text, blank: true, word: false });
        } else word.push(c);
      }
      flush();
    }
    i = j;
  }
  return pieces;
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

function useFace(doc: PDFKit.PDFDocument, face: Face, word: boolean): void {
  let keys = registered.get(doc);
  if (!keys) {
    keys = new Set();
    registered.set(doc, keys);
  }
  const key = word ? `${face.key}-words` : face.key;
  // pdfkit accepts a parsed fontkit font (anything with `layout`); its types only name files.
  if (!keys.has(key)) doc.registerFont(key, (word ? wordFont(face.font) : face.font) as unknown as Buffer);
  keys.add(key);
  doc.font(key);
}

interface Layout {
  lines: Cluster[][];
  base: 0 | 1;
  lineHeight: number;
}

async function layout(text: string, box: Omit<TextBox, 'x' | 'y'>): Promise<Layout> {
  const { width, style, size } = box;
  const clean = text.replace(/\r\n?/g, '\n').replace(/[^\P{Cc}\n\t]/gu, '');
  const clusters = await clustersOf(clean, style, cjkHint(clean));
  let lines = wrap(clusters, width, size, box.maxLines);
  if (box.maxLines !== undefined && lines.length > box.maxLines) {
    lines = lines.slice(0, box.maxLines);
    lines[lines.length - 1] = await ellipsize(lines[lines.length - 1], width, style, size);
  }
  const firstStrong = clusters.find((c) => c.bidi === 'L' || c.bidi === 'R');
  const base = box.direction === 'auto' && firstStrong?.bidi === 'R' ? 1 : 0;
  return { lines, base, lineHeight: box.lineHeight ?? size * 1.3 };
}

/** The height `drawText` would take for the same text and box. */
export async function textHeight(text: string, box: Omit<TextBox, 'x' | 'y'>): Promise<number> {
  const { lines, lineHeight } = await layout(text, box);
  return lines.length * lineHeight;
}

/**
 * Draws any Unicode text in the box, picking a font per grapheme cluster, and returns the y
 * below the last line. Colour is the document's current fill colour.
 */
export async function drawText(doc: PDFKit.PDFDocument, text: string, box: TextBox): Promise<number> {
  const { x, width, size } = box;
  const { lines, base, lineHeight } = await layout(text, box);
  const align = box.align ?? 'left';
  const [docX, docY] = [doc.x, doc.y];
  let y = box.y;
  for (const line of lines) {
    const pieces = piecesOf(line, base);
    const widths = pieces.map((p) => advance(p.face, p.text, size));
    const total = widths.reduce((a, b) => a + b, 0);
    let cursor = align === 'center' ? x + (width - total) / 2 : align === 'right' ? x + width - total : x;
    // A baseline shared by every face, whatever each one's ascender.
    const baseline = y + size * 1.02;
    for (const [k, piece] of pieces.entries()) {
      if (!piece.blank && piece.text !== '') {
        useFace(doc, piece.face, piece.word);
        doc.fontSize(size).text(piece.text, cursor, baseline, { lineBreak: false, baseline: 'alphabetic' });
      }
      cursor += widths[k];
    }
    y += lineHeight;
  }
  doc.x = docX;
  doc.y = docY;
  return y;
}
