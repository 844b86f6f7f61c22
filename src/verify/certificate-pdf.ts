import { existsSync, readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { Certificate } from '../proof/verify-draw.ts';
import { describeSource, formatUtc, sourceReferenceUrl } from './certificate-text.ts';

interface Fonts {
  regular: string | Buffer;
  bold: string | Buffer;
  mono: string | Buffer;
  /** The built-in PDF fonts only encode Windows-1252; anything else must be replaced. */
  unicode: boolean;
}

// Titles and names are often not Latin (Telegram audiences), so a Unicode TTF is used when the
// system has one; pdfkit's built-in fonts are the fallback on a bare machine.
const FONT_CANDIDATES = [
  [
    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
  ],
  [
    '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf',
  ],
];

let fonts: Fonts | undefined;
function loadFonts(): Fonts {
  if (fonts) return fonts;
  const found = FONT_CANDIDATES.find((set) => set.every((path) => existsSync(path)));
  fonts = found
    ? {
        regular: readFileSync(found[0]),
        bold: readFileSync(found[1]),
        mono: readFileSync(found[2]),
        unicode: true,
      }
    : { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: 'Courier', unicode: false };
  return fonts;
}

const CP1252_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
function encodable(text: string, unicode: boolean): string {
  if (unicode) return text;
  return [...text].map((c) => (c.charCodeAt(0) <= 0xff || CP1252_EXTRA.includes(c) ? c : '?')).join('');
}

const PAGE = { width: 595.28, height: 841.89, margin: 42 };
const QR_SIZE = 112;
const LABEL_WIDTH = 118;

/** A one-page A4 certificate with a QR code to the verification page, made on each request. */
export async function renderCertificatePdf(
  cert: Certificate,
  pageUrl: string,
  specUrl: string,
): Promise<Buffer> {
  const f = loadFonts();
  const t = (text: unknown) => encodable(String(text ?? '—'), f.unicode);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.margin, bottom: 10, left: PAGE.margin, right: PAGE.margin },
    info: { Title: t(`Draw certificate ${cert.certificate_id}`), Subject: t(cert.title), Creator: 'Tyche' },
  });
  doc.registerFont('regular', f.regular);
  doc.registerFont('bold', f.bold);
  doc.registerFont('mono', f.mono);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const qrX = PAGE.width - PAGE.margin - QR_SIZE;
  drawQr(doc, pageUrl, qrX, PAGE.margin, QR_SIZE);
  doc
    .font('regular')
    .fontSize(6.5)
    .fillColor('#444')
    .text(t(pageUrl), qrX - 10, PAGE.margin + QR_SIZE + 2, {
      width: QR_SIZE + 10,
      align: 'center',
    });

  const headWidth = width - QR_SIZE - 16;
  doc.fillColor('#555').font('regular').fontSize(9).text('TYCHE DRAW CERTIFICATE', left, PAGE.margin);
  doc.moveDown(0.3).fillColor('#000').font('bold').fontSize(17);
  doc.text(t(cert.title), { width: headWidth, height: 64, ellipsis: true });
  doc.moveDown(0.3).font('regular').fontSize(9.5).fillColor('#222');
  doc.text(t(`Certificate ${cert.certificate_id} · giveaway ${cert.public_id}`), { width: headWidth });
  doc.text(t(`Drawn ${formatUtc(cert.drawn_at)}`), { width: headWidth });
  doc.y = Math.max(doc.y + 10, PAGE.margin + QR_SIZE + 22);

  const r = cert.randomness;
  const refUrl = sourceReferenceUrl(r.source, r.source_reference);
  const rows: [string, string, boolean][] = [
    ['Algorithm', `${cert.algorithm}, specified at ${specUrl}`, false],
    ['Participants', `${cert.participants_count} (winners requested: ${cert.winners_count})`, false],
    ['Participants hash', cert.participants_hash, true],
    ['Randomness source', `${describeSource(r.source)} (${r.source})`, false],
    [
      'Source reference',
      refUrl && refUrl !== r.source_reference ? `${r.source_reference} (${refUrl})` : r.source_reference,
      true,
    ],
    ['Operation', `${r.request_id}, obtained ${formatUtc(r.obtained_at)}`, false],
    ['R (32 bytes)', r.bytes, true],
    ...(r.beacon_value !== undefined
      ? ([['Beacon value', r.beacon_value, true]] as [string, string, boolean][])
      : []),
    ...(r.system_entropy !== undefined
      ? ([['System entropy', r.system_entropy, true]] as [string, string, boolean][])
      : []),
    ['Seed', cert.seed, true],
    ['Certificate hash', cert.hash, true],
    ['Signature', `${cert.signature?.alg} by key ${cert.signature?.kid}`, false],
    ['Signature value', cert.signature?.value, true],
  ];
  for (const [label, value, mono] of rows) {
    const y = doc.y;
    doc
      .font('bold')
      .fontSize(8.5)
      .fillColor('#333')
      .text(label, left, y, { width: LABEL_WIDTH - 6 });
    doc
      .font(mono ? 'mono' : 'regular')
      .fontSize(mono ? 7.4 : 8.5)
      .fillColor('#000');
    doc.text(t(value), left + LABEL_WIDTH, y, { width: width - LABEL_WIDTH });
    doc.y = Math.max(doc.y, y + 11) + 3;
  }

  drawWinners(doc, cert, t, left, width, pageUrl);
  const footer = `Check it: open ${pageUrl} and press “Verify this draw”, or run: npx tyche verify ${pageUrl}`;
  doc
    .font('regular')
    .fontSize(7.5)
    .fillColor('#444')
    .text(t(footer), left, PAGE.height - PAGE.margin - 14, { width, height: 20, ellipsis: true });
  doc.end();
  return done;
}

function drawWinners(
  doc: PDFKit.PDFDocument,
  cert: Certificate,
  t: (text: unknown) => string,
  left: number,
  width: number,
  pageUrl: string,
): void {
  doc.moveDown(0.6).font('bold').fontSize(11).fillColor('#000').text('Winners, in draw order', left);
  doc.moveDown(0.2);
  const columns = [left, left + 34, left + 250, left + 390];
  const header = ['#', 'Username', 'Telegram ID', 'Canonical index'];
  doc.font('bold').fontSize(8.5);
  const headerY = doc.y;
  for (const [i, h] of header.entries()) doc.text(h, columns[i], headerY, { lineBreak: false });
  const rowHeight = 11.5;
  const bottom = PAGE.height - PAGE.margin - 28;
  let y = headerY + rowHeight + 1;
  doc
    .moveTo(left, y - 2)
    .lineTo(left + width, y - 2)
    .lineWidth(0.5)
    .strokeColor('#999')
    .stroke();
  const fits = Math.max(0, Math.floor((bottom - y) / rowHeight));
  const shown = cert.winners.length <= fits ? cert.winners.length : Math.max(0, fits - 1);
  doc.font('regular').fontSize(8.5).fillColor('#000');
  for (const w of cert.winners.slice(0, shown)) {
    const cells = [
      String(w.position),
      w.username ? `@${w.username}` : '—',
      String(w.telegram_id),
      String(w.index),
    ];
    for (const [i, c] of cells.entries()) {
      const cellWidth = (columns[i + 1] ?? left + width) - columns[i] - 6;
      doc.text(t(c), columns[i], y, {
        width: cellWidth,
        height: rowHeight,
        lineBreak: false,
        ellipsis: true,
      });
    }
    y += rowHeight;
  }
  if (shown < cert.winners.length) {
    doc.font('bold').text(t(`… and ${cert.winners.length - shown} more winners: see ${pageUrl}`), left, y, {
      width,
      lineBreak: false,
    });
  }
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
