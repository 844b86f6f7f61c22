import type { CertificateV2, EntrantWinner } from '../proof/v2-types.ts';
import { DRAND_QUICKNET } from '../randomness/sources/drand.source.ts';
import { formatUtc, logEntryText } from './certificate-text.ts';
import {
  type Column,
  drawFooter,
  drawHeader,
  drawHeading,
  drawNote,
  drawRows,
  drawTable,
  openPage,
  TABLE_BOTTOM,
} from './pdf-page.ts';

const COLUMNS: Column[] = [
  { title: '#', width: 26 },
  { title: 'Entrant', width: 112 },
  { title: 'Telegram ID', width: 78 },
  { title: 'Leaf hash', width: 252, mono: true },
  { title: 'Proof', width: 43 },
];

function cells(w: EntrantWinner): string[] {
  return [
    String(w.position),
    w.username ? `@${w.username}` : '—',
    String(w.telegram_id),
    w.leaf_hash,
    `${w.proof.length} ${w.proof.length === 1 ? 'hash' : 'hashes'}`,
  ];
}

/** Where the standalone verifier is served: beside /verify/ under the same base URL. */
export function verifierUrl(pageUrl: string): string {
  return `${pageUrl.replace(/\/verify\/[^/]*$/, '')}/tyche-verify.mjs`;
}

/** The tyche-draw-v2 certificate: the seal, the drand round, the seed, winners and reserves. */
export async function renderCertificatePdfV2(
  cert: CertificateV2,
  pageUrl: string,
  specUrl: string,
): Promise<Buffer> {
  const { seal, beacon } = cert;
  const { giveaway } = seal;
  const { doc, done } = openPage({
    title: `Draw certificate ${cert.certificate_id}`,
    subject: giveaway.title,
  });
  let y = await drawHeader(doc, {
    eyebrow: 'TYCHE VERIFIABLE DRAW CERTIFICATE',
    title: giveaway.title,
    lines: [
      `Certificate ${cert.certificate_id} · giveaway ${giveaway.public_id} · seal ${seal.seal_id}`,
      `Drawn ${formatUtc(cert.drawn_at)} from drand round ${beacon.round}`,
    ],
    pageUrl,
  });
  y = await drawNote(doc, y, {
    tone: 'assurance',
    lead: `${cert.algorithm}: the winners come from a public drand round that did not exist when the entrant list was sealed.`,
    text:
      `The ${seal.entrants.count} entrants were sealed and signed at ${formatUtc(seal.sealed_at)}, committing to ` +
      `round ${seal.beacon.round}, due at ${formatUtc(seal.beacon.round_at)}. Nothing else enters the draw: ` +
      'anyone can recompute the seed and the winners from this certificate, and each winner’s inclusion ' +
      'proof ties them to the sealed list.',
  });

  const quicknet = beacon.chain_hash === DRAND_QUICKNET.chainHash ? ' (quicknet)' : '';
  y = await drawHeading(doc, y, 'Seal');
  y = await drawRows(doc, y, [
    ['Entrants', `${seal.entrants.count}, sealed ${formatUtc(seal.sealed_at)}`, false],
    ['Entrants root', seal.entrants.root, true],
    ['Requested', `${giveaway.winners_count} winners, ${giveaway.reserve_count} reserves`, false],
    ['Seal hash', seal.hash, true],
    ['Transparency log', logEntryText(cert, 'seal_log_index'), false],
    ['Seal signature', `${seal.signature.alg} by key ${seal.signature.kid}`, false],
  ]);
  y = await drawHeading(doc, y + 4, 'drand round');
  y = await drawRows(doc, y, [
    ['Chain', `${beacon.chain_hash}${quicknet}`, true],
    [
      'Round',
      `${beacon.round}, due ${formatUtc(seal.beacon.round_at)} (newest round at sealing: ${seal.beacon.after_round})`,
      false,
    ],
    ['Randomness', beacon.randomness, true],
    ['BLS signature', beacon.signature, true],
  ]);
  y = await drawHeading(doc, y + 4, 'Draw');
  y = await drawRows(doc, y, [
    ['Algorithm', `${cert.algorithm}, specified at ${specUrl}`, false],
    ['Seed', cert.seed, true],
    ['Certificate hash', cert.hash, true],
    ['Transparency log', logEntryText(cert, 'log_index'), false],
    ['Signature', `${cert.signature.alg} by key ${cert.signature.kid}`, false],
    ['Signature value', cert.signature.value, true],
  ]);

  y = await drawHeading(doc, y + 6, 'Winners, in draw order');
  const reserves = cert.reserves.map(cells);
  // With reserves to follow, the winners leave room for at least the line that points to them.
  const winnersBottom = reserves.length > 0 ? TABLE_BOTTOM - 12 : TABLE_BOTTOM;
  const moreWinners = (hidden: number) => `… and ${hidden} more winners: see ${pageUrl}`;
  y = await drawTable(doc, y, COLUMNS, cert.winners.map(cells), moreWinners, winnersBottom);
  const moreReserves = (hidden: number) =>
    `… and ${hidden} ${hidden < reserves.length ? 'more ' : ''}reserves: see ${pageUrl}`;
  if (reserves.length > 0 && y + 60 < TABLE_BOTTOM) {
    y = await drawHeading(doc, y + 6, 'Reserves, in order: each takes the place of a winner who drops out');
    await drawTable(doc, y, COLUMNS, reserves, moreReserves);
  } else if (reserves.length > 0) {
    await drawTable(doc, y, COLUMNS, reserves, moreReserves);
  }
  await drawFooter(
    doc,
    `Check it: scan the QR code or open ${pageUrl} and press “Verify this draw”, or download ` +
      `${verifierUrl(pageUrl)} and run: node tyche-verify.mjs ${pageUrl}`,
  );
  doc.end();
  return done;
}
