import { OPERATOR_TRUST_LABEL } from '../proof/report.ts';
import type { CertificateV2 } from '../proof/v2-types.ts';
import { ALGORITHM_V2 } from '../proof/v2-types.ts';
import type { CertificateV1 } from '../proof/verify-v1.ts';
import { renderCertificatePdfV2 } from './certificate-pdf-v2.ts';
import { describeSource, formatUtc, logEntryText, sourceReferenceUrl } from './certificate-text.ts';
import {
  drawFooter,
  drawHeader,
  drawHeading,
  drawNote,
  drawRows,
  drawTable,
  openPage,
  type Row,
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
  if (cert.algorithm === ALGORITHM_V2) return renderCertificatePdfV2(cert as CertificateV2, pageUrl, specUrl);
  return renderV1(cert as CertificateV1, pageUrl, specUrl);
}

async function renderV1(cert: CertificateV1, pageUrl: string, specUrl: string): Promise<Buffer> {
  const { doc, done } = openPage({ title: `Draw certificate ${cert.certificate_id}`, subject: cert.title });
  let y = await drawHeader(doc, {
    eyebrow: 'TYCHE DRAW CERTIFICATE',
    title: cert.title,
    lines: [
      `Certificate ${cert.certificate_id} · giveaway ${cert.public_id}`,
      `Drawn ${formatUtc(cert.drawn_at)}`,
    ],
    pageUrl,
  });
  y = await drawNote(doc, y, {
    tone: 'warning',
    lead: `${cert.algorithm}: ${OPERATOR_TRUST_LABEL}.`,
    text:
      'The winners follow from randomness the server obtained for itself when it drew. The signature shows ' +
      'who issued this certificate, not that the draw was not repeated until a chosen entrant won. ' +
      'A verifiable draw (tyche-draw-v2) seals the entrant list before a public drand round exists.',
  });

  const r = cert.randomness;
  const refUrl = sourceReferenceUrl(r.source, r.source_reference);
  const rows: Row[] = [
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
    ...(r.beacon_value !== undefined ? [['Beacon value', r.beacon_value, true] as Row] : []),
    ...(r.system_entropy !== undefined ? [['System entropy', r.system_entropy, true] as Row] : []),
    ['Seed', cert.seed, true],
    ['Certificate hash', cert.hash, true],
    ['Transparency log', logEntryText(cert, 'log_index'), false],
    ['Signature', `${cert.signature?.alg} by key ${cert.signature?.kid}`, false],
    ['Signature value', String(cert.signature?.value), true],
  ];
  y = await drawRows(
    doc,
    y,
    rows.map(([label, value, mono]) => [label, String(value ?? '—'), mono]),
  );

  y = await drawHeading(doc, y + 6, 'Winners, in draw order');
  await drawTable(
    doc,
    y,
    [
      { title: '#', width: 34 },
      { title: 'Username', width: 216 },
      { title: 'Telegram ID', width: 140 },
      { title: 'Canonical index', width: 121 },
    ],
    cert.winners.map((w) => [
      String(w.position),
      w.username ? `@${w.username}` : '—',
      String(w.telegram_id),
      String(w.index),
    ]),
    (hidden) => `… and ${hidden} more winners: see ${pageUrl}`,
  );
  await drawFooter(
    doc,
    `Check it: open ${pageUrl} and press “Verify this draw”, or run: npx tyche verify ${pageUrl}`,
  );
  doc.end();
  return done;
}
