import { ALGORITHM_V2, type CertificateV2 } from '../proof/v2-types.ts';
import type { CertificateV1 } from '../proof/verify-v1.ts';
import { type CertificateContent, contentV1, contentV2 } from './certificate-content.ts';
import {
  drawFooter,
  drawHeader,
  drawHeading,
  drawNote,
  drawRows,
  drawTable,
  openPage,
  TABLE_BOTTOM,
} from './pdf-page.ts';

/**
 * A one-page A4 certificate with a QR code to the verification page, made on each request.
 * Any title renders: fonts are chosen per character from the packaged Noto families.
 */
export async function renderCertificatePdf(
  cert: CertificateV1 | CertificateV2,
  pageUrl: string,
  specUrl: string,
): Promise<Buffer> {
  const content =
    cert.algorithm === ALGORITHM_V2
      ? contentV2(cert as CertificateV2, pageUrl, specUrl)
      : contentV1(cert as CertificateV1, pageUrl, specUrl);
  return renderContent(content, pageUrl);
}

async function renderContent(content: CertificateContent, pageUrl: string): Promise<Buffer> {
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
  for (const [i, section] of content.sections.entries()) {
    // The note leaves its own space below it; later headings keep some from the rows above.
    if (section.heading !== undefined) y = await drawHeading(doc, i === 0 ? y : y + 4, section.heading);
    y = await drawRows(doc, y, section.rows);
  }

  y = await drawHeading(doc, y + 6, 'Winners, in draw order');
  const { columns, reserves } = content;
  // With reserves to follow, the winners leave room for at least the line that points to them.
  const winnersBottom = reserves.length > 0 ? TABLE_BOTTOM - 12 : TABLE_BOTTOM;
  const moreWinners = (hidden: number) => `… and ${hidden} more winners: see ${pageUrl}`;
  y = await drawTable(doc, y, columns, content.winners, moreWinners, winnersBottom);
  const moreReserves = (hidden: number) =>
    `… and ${hidden} ${hidden < reserves.length ? 'more ' : ''}reserves: see ${pageUrl}`;
  if (reserves.length > 0 && y + 60 < TABLE_BOTTOM) {
    y = await drawHeading(doc, y + 6, 'Reserves, in order: each takes the place of a winner who drops out');
    await drawTable(doc, y, columns, reserves, moreReserves);
  } else if (reserves.length > 0) {
    await drawTable(doc, y, columns, reserves, moreReserves);
  }
  await drawFooter(doc, content.footer);
  doc.end();
  return done;
}
