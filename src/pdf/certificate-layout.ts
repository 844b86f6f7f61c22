import type { AmendedContent } from './certificate-amendments.ts';
import type { CertificateContent } from './certificate-content.ts';
import {
  drawFooter,
  drawHeader,
  drawHeading,
  drawNote,
  drawRows,
  drawTable,
  LABEL_WIDTH,
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
  const { labels } = content;
  y = await drawHeading(doc, y, labels.amendedWinners);
  const more = (hidden: number) => fill(labels.moreAmended, hidden);
  const bottom = Math.min(TABLE_BOTTOM, y + AMENDED_TABLE_MAX);
  return drawTable(doc, y, content.columns, amended.winners, more, bottom);
}

/** A label's `{hidden}` slot: how many rows did not fit. */
const fill = (label: string, hidden: number) => label.replaceAll('{hidden}', String(hidden));

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
  labels: CertificateContent['labels'],
): Promise<number> {
  doc.fillColor('#000');
  // A smaller heading than the tables': one amendment's history still fits under a full page.
  y =
    (await drawText(doc, labels.history, {
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
      const more = fill(labels.moreHistory, left);
      return drawText(doc, more, { x: LEFT, y, width: WIDTH, style: 'bold', size: 8.5, maxLines: 1 });
    }
    y = (await drawText(doc, line, { ...HISTORY_BOX, y })) + 3;
  }
  return y;
}

/** How tall the label/value sections will be, headings included, as drawRows and drawHeading lay them. */
async function sectionsHeight(sections: CertificateContent['sections']): Promise<number> {
  let height = 0;
  for (const section of sections) {
    height += section.heading === undefined ? 4 : 6 + 16;
    for (const [label, value, mono] of section.rows) {
      const labelHeight = await textHeight(label, {
        width: LABEL_WIDTH - 6,
        style: 'bold',
        size: 8.5,
        lineHeight: 11,
      });
      const valueHeight = await textHeight(value, {
        width: WIDTH - LABEL_WIDTH,
        style: mono ? 'mono' : 'regular',
        size: mono ? 7.4 : 8.5,
        lineHeight: mono ? 9.6 : 11,
        maxLines: 4,
      });
      height += Math.max(labelHeight, valueHeight + (mono ? 0.8 : 0)) + 3;
    }
  }
  return height;
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
  const { amended, labels, columns, reserves } = content;
  if (amended) y = await drawAmendedWinners(doc, y, content, pageUrl, amended);

  // Who won comes first; the evidence below keeps the room it needs, and winners or reserves
  // beyond that room are pointed to on the page rather than cut off.
  // A short history of replacements keeps its room on the first page too.
  const history = amended ? Math.min(await historyHeight(amended.history), 140) + 3 : 0;
  const evidence = (await sectionsHeight(content.sections)) + history;
  const reserveRoom = reserves.length > 0 ? Math.min(reserves.length, 4) * 11.5 + 38 : 0;
  const winnersBottom = Math.max(y + 60, TABLE_BOTTOM - evidence - reserveRoom - 10);
  y = await drawHeading(doc, y + 6, amended ? labels.winnersAsDrawn : labels.winners);
  const moreWinners = (hidden: number) => fill(labels.moreWinners, hidden);
  y = await drawTable(doc, y, columns, content.winners, moreWinners, winnersBottom);
  const moreReserves = (hidden: number) => fill(labels.moreReserves, hidden);
  if (reserves.length > 0) {
    y = await drawHeading(doc, y + 6, labels.reserves);
    y = await drawTable(doc, y, columns, reserves, moreReserves, Math.max(y + 24, TABLE_BOTTOM - evidence));
  }
  for (const section of content.sections) {
    y = section.heading === undefined ? y + 4 : await drawHeading(doc, y + 6, section.heading);
    y = await drawRows(doc, y, section.rows);
  }
  if (amended) {
    // The history stays on the first page when it fits there; otherwise it gets a page of its own.
    if (y + 3 + (await historyHeight(amended.history)) > TABLE_BOTTOM) {
      await drawFooter(doc, content.footer);
      doc.addPage();
      y = PAGE.margin;
    }
    await drawHistory(doc, y + 3, amended.history, labels);
  }
  await drawFooter(doc, content.footer);
  doc.end();
  return done;
}
