import { create, type Font } from 'fontkit';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

/** One glyph as a PDF reader draws it: its text, its font, and whether the font has ink for it. */
export interface DrawnGlyph {
  unicode: string;
  font: string;
  /** The character code in the content stream; 0 is .notdef, the empty box. */
  code: number;
  /** The reader found the glyph in the embedded font program. */
  inFont: boolean;
  /** The embedded font program has an outline for it (a space has none). */
  inked: boolean;
}

export interface PdfReading {
  pages: number;
  /** The first page's text as a reader extracts it, items joined as drawn, lines by newlines. */
  text: string;
  glyphs: DrawnGlyph[];
  /** BaseFont names of the fonts the first page draws with. */
  fonts: string[];
}

interface ReaderFont {
  name: string;
  data?: Uint8Array;
}

interface ReaderGlyph {
  unicode: string;
  fontChar: string;
  originalCharCode: number;
  isInFont: boolean;
}

/** Reads a PDF with pdf.js the way a viewer does, keeping the fonts' programs to inspect them. */
export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    verbosity: 0,
    fontExtraProperties: true,
  }).promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const text = content.items
    .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
    .join('');
  const operators = await page.getOperatorList();
  const programs = new Map<string, Font | null>();
  const glyphs: DrawnGlyph[] = [];
  const fonts = new Set<string>();
  let font: ReaderFont | undefined;
  let program: Font | null = null;
  for (const [i, op] of operators.fnArray.entries()) {
    const args = operators.argsArray[i];
    if (op === pdfjs.OPS.setFont) {
      font = page.commonObjs.get(args[0]) as ReaderFont;
      fonts.add(font.name);
      if (!programs.has(font.name)) {
        const parsed = font.data ? create(Buffer.from(font.data)) : null;
        programs.set(font.name, parsed && 'layout' in parsed ? parsed : null);
      }
      program = programs.get(font.name) ?? null;
    } else if (op === pdfjs.OPS.showText && font) {
      for (const g of args[0] as (ReaderGlyph | number | null)[]) {
        if (g === null || typeof g !== 'object') continue;
        const outline = program?.glyphForCodePoint(g.fontChar.codePointAt(0) as number);
        glyphs.push({
          unicode: g.unicode,
          font: font.name,
          code: g.originalCharCode,
          inFont: g.isInFont,
          inked: (outline?.path.commands.length ?? 0) > 0,
        });
      }
    }
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, text, glyphs, fonts: [...fonts] };
}
