import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { drawText, textHeight } from './pdf-text.ts';

// The parts both certificate layouts share: one A4 page, a header with the QR code to the
// verification page, label/value rows, a coloured note, tables that end in "… and N more".

export const PAGE = { width: 595.28, height: 841.89, margin: 42 };
export const LEFT = PAGE.margin;
export const WIDTH = PAGE.width - 2 * PAGE.margin;
const QR_SIZE = 112;
export const LABEL_WIDTH = 118;
/** Where tables stop, leaving room for the footer. */
export const TABLE_BOTTOM = PAGE.height - PAGE.margin - 30;

export interface PdfPage {
  doc: PDFKit.PDFDocument;
  /** The finished file, once `doc.end()` has been called. */
  done: Promise<Buffer>;
}

export function openPage(info: { title: string; subject: string }): PdfPage {
  const doc = new PDFDocument({
    size: 'A4',
    // No bottom margin to speak of: everything is placed explicitly, never flowed onto a page 2.
    margins: { top: PAGE.margin, bottom: 10, left: PAGE.margin, right: PAGE.margin },
    info: { Title: info.title, Subject: info.subject, Creator: 'Tyche' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/** Eyebrow, title and meta lines beside the QR code; returns the y below both. */
export async function drawHeader(
  doc: PDFKit.PDFDocument,
  head: { eyebrow: string; title: string; lines: string[]; pageUrl: string },
): Promise<number> {
  const qrX = PAGE.width - PAGE.margin - QR_SIZE;
  drawQr(doc, head.pageUrl, qrX, PAGE.margin, QR_SIZE);
  doc.fillColor('#444');
  const urlBottom = await drawText(doc, head.pageUrl, {
    x: qrX - 14,
    y: PAGE.margin + QR_SIZE + 2,
    width: QR_SIZE + 14,
    style: 'regular',
    size: 6.5,
    align: 'center',
  });
  const width = WIDTH - QR_SIZE - 16;
  doc.fillColor('#555');
  let y = await drawText(doc, head.eyebrow, { x: LEFT, y: PAGE.margin, width, style: 'regular', size: 9 });
  doc.fillColor('#000');
  y = await drawText(doc, head.title, {
    x: LEFT,
    y: y + 3,
    width,
    style: 'bold',
    size: 17,
    maxLines: 3,
    lineHeight: 21,
    direction: 'auto',
  });
  doc.fillColor('#222');
  y += 3;
  for (const line of head.lines) {
    y = await drawText(doc, line, { x: LEFT, y, width, style: 'regular', size: 9.5, maxLines: 2 });
  }
  return Math.max(y + 8, urlBottom + 6);
}

/** A shaded box with a bold lead and an explanation; returns the y below it. */
export async function drawNote(
  doc: PDFKit.PDFDocument,
  y: number,
  note: { lead: string; text: string; tone: 'warning' | 'assurance' },
): Promise<number> {
  const [fill, stroke] = note.tone === 'warning' ? ['#fff4d6', '#c98a00'] : ['#e9f7ef', '#1a7f37'];
  const pad = 7;
  const x = LEFT + pad;
  const width = WIDTH - 2 * pad;
  const lead = { width, style: 'bold', size: 10, lineHeight: 13 } as const;
  const body = { width, style: 'regular', size: 8.5, lineHeight: 11 } as const;
  const height = (await textHeight(note.lead, lead)) + (await textHeight(note.text, body));
  doc
    .save()
    .lineWidth(0.8)
    .roundedRect(LEFT, y, WIDTH, height + 2 * pad, 4)
    .fillAndStroke(fill, stroke)
    .restore();
  doc.fillColor('#000');
  const after = await drawText(doc, note.lead, { ...lead, x, y: y + pad });
  doc.fillColor('#222');
  await drawText(doc, note.text, { ...body, x, y: after });
  return y + height + 2 * pad + 8;
}

export type Row = [label: string, value: string, mono: boolean];

/** Label/value rows, the value wrapping under itself; returns the y below the last. */
export async function drawRows(doc: PDFKit.PDFDocument, y: number, rows: Row[]): Promise<number> {
  for (const [label, value, mono] of rows) {
    doc.fillColor('#333');
    const labelBottom = await drawText(doc, label, {
      x: LEFT,
      y,
      width: LABEL_WIDTH - 6,
      style: 'bold',
      size: 8.5,
      lineHeight: 11,
    });
    doc.fillColor('#000');
    const valueBottom = await drawText(doc, value, {
      x: LEFT + LABEL_WIDTH,
      y: mono ? y + 0.8 : y,
      width: WIDTH - LABEL_WIDTH,
      style: mono ? 'mono' : 'regular',
      size: mono ? 7.4 : 8.5,
      lineHeight: mono ? 9.6 : 11,
      maxLines: 4,
    });
    y = Math.max(labelBottom, valueBottom) + 3;
  }
  return y;
}

export async function drawHeading(doc: PDFKit.PDFDocument, y: number, text: string): Promise<number> {
  doc.fillColor('#000');
  return (
    (await drawText(doc, text, { x: LEFT, y, width: WIDTH, style: 'bold', size: 11, lineHeight: 15 })) + 1
  );
}

export interface Column {
  title: string;
  width: number;
  mono?: boolean;
}

/**
 * A table that stops before the footer: when the rows do not all fit, the last line says how
 * many more there are and where to see them. Returns the y below the table.
 */
export async function drawTable(
  doc: PDFKit.PDFDocument,
  y: number,
  columns: Column[],
  rows: string[][],
  more: (hidden: number) => string,
  bottom = TABLE_BOTTOM,
): Promise<number> {
  const rowHeight = 11.5;
  const moreLine = async (at: number, hidden: number) => {
    await drawText(doc, more(hidden), {
      x: LEFT,
      y: at,
      width: WIDTH,
      style: 'bold',
      size: 8.5,
      maxLines: 1,
    });
    return at + rowHeight;
  };
  // Too little room for a header and one row: a single line says where the rows are.
  if (y + 2 * rowHeight + 1 > bottom) {
    doc.fillColor('#000');
    return moreLine(y, rows.length);
  }
  let x = LEFT;
  doc.fillColor('#000');
  for (const column of columns) {
    await drawText(doc, column.title, {
      x,
      y,
      width: column.width - 6,
      style: 'bold',
      size: 8.5,
      maxLines: 1,
    });
    x += column.width;
  }
  y += rowHeight + 1;
  doc
    .moveTo(LEFT, y - 2)
    .lineTo(LEFT + WIDTH, y - 2)
    .lineWidth(0.5)
    .strokeColor('#999')
    .stroke();
  const fits = Math.max(1, Math.floor((bottom - y) / rowHeight));
  const shown = rows.length <= fits ? rows.length : fits - 1;
  for (const row of rows.slice(0, shown)) {
    x = LEFT;
    for (const [i, cell] of row.entries()) {
      const column = columns[i];
      await drawText(doc, cell, {
        x,
        y: column.mono ? y + 1 : y,
        width: column.width - 6,
        style: column.mono ? 'mono' : 'regular',
        size: column.mono ? 6.3 : 8.5,
        maxLines: 1,
      });
      x += column.width;
    }
    y += rowHeight;
  }
  return shown < rows.length ? moreLine(y, rows.length - shown) : y;
}

export async function drawFooter(doc: PDFKit.PDFDocument, text: string): Promise<void> {
  doc.fillColor('#444');
  await drawText(doc, text, {
    x: LEFT,
    y: PAGE.height - PAGE.margin - 18,
    width: WIDTH,
    style: 'regular',
    size: 7.5,
    lineHeight: 9.5,
    maxLines: 2,
  });
}

function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const matrix = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  // A 4-module quiet zone around the symbol, as scanners expect.
  const cell = size / (matrix.size + 8);
  doc.save().fillColor('#000');
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      if (matrix.get(row, col)) doc.rect(x + (col + 4) * cell, y + (row + 4) * cell, cell, cell);
    }
  }
  doc.fill().restore();
}
