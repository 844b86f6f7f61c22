import type { AmendedContent } from './certificate-amendments.ts';
import type { CertificateContent } from './certificate-content.ts';
import {
  drawFooter,
  drawHeader,
  drawHeading,
  drawNote,
  drawRows,
  drawTable,
  LEFT,
  openPage,
  PAGE,
  TABLE_BOTTOM,
  WIDTH,
} from './pdf-page.ts';
import { drawText, textHeight } from './pdf-text.ts';

/** The winners as amended take at most this much of the first page. */
const AMENDED_TABLE_MAX = 12 * 11.5;

async function drawAmendedWinners(
  doc: PDFKit.PDFDocument,
  y: number,
  content: CertificateContent,
  pageUrl: string,
  amended: AmendedContent,
): Promise<number> {
  const n = amended.count;
  const heading = `Winners as amended, after ${n} replacement${n === 1 ? '' : 's'} by the reserves (history below)`;
  y = await drawHeading(doc, y, heading);
  const more = (hidden: number) => `… and ${hidden} more winners as amended: see ${pageUrl}`;
  const bottom = Math.min(TABLE_BOTTOM, y + AMENDED_TABLE_MAX);
  return drawTable(doc, y, content.columns, amended.winners, more, bottom);
}

/** Each line of the history: a long note wraps to at most four lines. */
const HISTORY_BOX = {
  x: LEFT,
  width: WIDTH,
  style: 'regular',
  size: 8,
  lineHeight: 10,
  maxLines: 4,
} as const;
const MORE_LINE = 12;
const HISTORY_HEADING = 13;

/** The history's height, heading included, when all of it is drawn. */
async function historyHeight(history: string[]): Promise<number> {
  let height = HISTORY_HEADING;
  for (const line of history) height += (await textHeight(line, HISTORY_BOX)) + 3;
  return height;
}

async function drawHistory(
  doc: PDFKit.PDFDocument,
  y: number,
  history: string[],
  pageUrl: string,
): Promise<number> {
  doc.fillColor('#000');
  // A smaller heading than the tables': one amendment's history still fits under a full page.
  y =
    (await drawText(doc, 'History of replacements', {
      ...HISTORY_BOX,
      y,
      style: 'bold',
      size: 9.5,
      lineHeight: 12,
    })) + 1;
  for (const [i, line] of history.entries()) {
    const height = await textHeight(line, HISTORY_BOX);
    // What does not fit above the footer is pointed to, never cut off.
    const room = i === history.length - 1 ? 0 : MORE_LINE;
    if (y + height + room > TABLE_BOTTOM) {
      const left = history.length - i;
      const more = `… and ${left} more amendment${left === 1 ? '' : 's'}: see ${pageUrl}`;
      return drawText(doc, more, { x: LEFT, y, width: WIDTH, style: 'bold', size: 8.5, maxLines: 1 });
    }
    y = (await drawText(doc, line, { ...HISTORY_BOX, y })) + 3;
  }
  return y;
}

/** Lays the content of a certificate out on its page (a second one for a long history). */
export async function renderContent(content: CertificateContent, pageUrl: string): Promise<Buffer> {
  const { doc, done } = openPage({
    title: `Draw certificate ${content.certificateId}`,
    subject: content.title,
  });
  let y = await drawHeader(doc, {
    eyebrow: content.eyebrow,
    title: content.title,
    lines: content.lines,
    pageUrl,
  });
  y = await drawNote(doc, y, content.note);
  const { amended } = content;
  if (amended) y = await drawAmendedWinners(doc, y, content, pageUrl, amended);
  for (const [i, section] of content.sections.entries()) {
    // The note leaves its own space below it; later headings keep some from the rows above.
    if (section.heading !== undefined) y = await drawHeading(doc, i === 0 ? y : y + 4, section.heading);
    y = await drawRows(doc, y, section.rows);
  }

  y = await drawHeading(doc, y + 6, amended ? 'Winners as drawn, in draw order' : 'Winners, in draw order');
  const { columns, reserves } = content;
  // With reserves to follow, the winners leave room for at least the line that points to them.
  const winnersBottom = reserves.length > 0 ? TABLE_BOTTOM - 12 : TABLE_BOTTOM;
  const moreWinners = (hidden: number) => `… and ${hidden} more winners: see ${pageUrl}`;
  y = await drawTable(doc, y, columns, content.winners, moreWinners, winnersBottom);
  const moreReserves = (hidden: number) =>
    `… and ${hidden} ${hidden < reserves.length ? 'more ' : ''}reserves: see ${pageUrl}`;
  if (reserves.length > 0 && y + 60 < TABLE_BOTTOM) {
    y = await drawHeading(doc, y + 6, 'Reserves, in order: each takes the place of a winner who drops out');
    y = await drawTable(doc, y, columns, reserves, moreReserves);
  } else if (reserves.length > 0) {
    y = await drawTable(doc, y, columns, reserves, moreReserves);
  }
  if (amended) {
    // The history stays on the first page when it fits there; otherwise it gets a page of its own.
    if (y + 3 + (await historyHeight(amended.history)) > TABLE_BOTTOM) {
      await drawFooter(doc, content.footer);
      doc.addPage();
      y = PAGE.margin;
    }
    await drawHistory(doc, y + 3, amended.history, pageUrl);
  }
  await drawFooter(doc, content.footer);
  doc.end();
  return done;
}
