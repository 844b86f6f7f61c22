import { OPERATOR_TRUST_LABEL } from '../proof/report.ts';
import type { CertificateV2, EntrantWinner } from '../proof/v2-types.ts';
import type { CertificateV1 } from '../proof/verify-v1.ts';
import { DRAND_QUICKNET } from '../randomness/sources/drand.source.ts';
import { type AmendedContent, amendedContent } from './certificate-amendments.ts';
import { describeSource, formatUtc, logEntryText, sourceReferenceUrl } from './certificate-text.ts';
import type { Column, Row } from './pdf-page.ts';

/** What a certificate's page shows; the renderer lays out any algorithm's from this. */
export interface CertificateContent {
  certificateId: string;
  title: string;
  eyebrow: string;
  lines: string[];
  note: { tone: 'warning' | 'assurance'; lead: string; text: string };
  /** Label/value blocks in order; a block without a heading follows the note directly. */
  sections: { heading?: string; rows: Row[] }[];
  columns: Column[];
  winners: string[][];
  reserves: string[][];
  /** v2 after replacements: the winners as amended, first, and the history (CONTRACT §14). */
  amended?: AmendedContent;
  footer: string;
}

const username = (name: string | null | undefined) => (name ? `@${name}` : '—');

/** Where the standalone verifier is served: beside /verify/ under the same base URL. */
export function verifierUrl(pageUrl: string): string {
  return `${pageUrl.replace(/\/verify\/[^/]*$/, '')}/tyche-verify.mjs`;
}

/** tyche-draw-v1: the operator's randomness, the seed and the winners, under a warning. */
export function contentV1(cert: CertificateV1, pageUrl: string, specUrl: string): CertificateContent {
  const r = cert.randomness;
  const refUrl = sourceReferenceUrl(r.source, r.source_reference);
  // Any member may be missing from a certificate altered in the store: it still renders.
  const row = (label: string, value: unknown, mono: boolean): Row => [label, String(value ?? '—'), mono];
  return {
    certificateId: cert.certificate_id,
    title: cert.title,
    eyebrow: 'TYCHE DRAW CERTIFICATE',
    lines: [
      `Certificate ${cert.certificate_id} · giveaway ${cert.public_id}`,
      `Drawn ${formatUtc(cert.drawn_at)}`,
    ],
    note: {
      tone: 'warning',
      lead: `${cert.algorithm}: ${OPERATOR_TRUST_LABEL}.`,
      text:
        'The winners follow from randomness the server obtained for itself when it drew. The signature shows ' +
        'who issued this certificate, not that the draw was not repeated until a chosen entrant won. ' +
        'A verifiable draw (tyche-draw-v2) seals the entrant list before a public drand round exists.',
    },
    sections: [
      {
        rows: [
          row('Algorithm', `${cert.algorithm}, specified at ${specUrl}`, false),
          row('Participants', `${cert.participants_count} (winners requested: ${cert.winners_count})`, false),
          row('Participants hash', cert.participants_hash, true),
          row('Randomness source', `${describeSource(r.source)} (${r.source})`, false),
          row(
            'Source reference',
            refUrl && refUrl !== r.source_reference
              ? `${r.source_reference} (${refUrl})`
              : r.source_reference,
            true,
          ),
          row('Operation', `${r.request_id}, obtained ${formatUtc(r.obtained_at)}`, false),
          row('R (32 bytes)', r.bytes, true),
          ...(r.beacon_value !== undefined ? [row('Beacon value', r.beacon_value, true)] : []),
          ...(r.system_entropy !== undefined ? [row('System entropy', r.system_entropy, true)] : []),
          row('Seed', cert.seed, true),
          row('Certificate hash', cert.hash, true),
          row('Transparency log', logEntryText(cert, 'log_index'), false),
          row('Signature', `${cert.signature?.alg} by key ${cert.signature?.kid}`, false),
          row('Signature value', String(cert.signature?.value), true),
        ],
      },
    ],
    columns: [
      { title: '#', width: 34 },
      { title: 'Username', width: 216 },
      { title: 'Telegram ID', width: 140 },
      { title: 'Canonical index', width: 121 },
    ],
    winners: cert.winners.map((w) => [
      String(w.position),
      username(w.username),
      String(w.telegram_id),
      String(w.index),
    ]),
    reserves: [],
    footer: `Check it: open ${pageUrl} and press “Verify this draw”, or run: npx tyche verify ${pageUrl}`,
  };
}

function entrantCells(w: EntrantWinner): string[] {
  return [
    String(w.position),
    username(w.username),
    String(w.telegram_id),
    w.leaf_hash,
    `${w.proof.length} ${w.proof.length === 1 ? 'hash' : 'hashes'}`,
  ];
}

/** tyche-draw-v2: the seal, the drand round, the seed, winners and reserves. */
export function contentV2(cert: CertificateV2, pageUrl: string, specUrl: string): CertificateContent {
  const { seal, beacon } = cert;
  const { giveaway } = seal;
  const quicknet = beacon.chain_hash === DRAND_QUICKNET.chainHash ? ' (quicknet)' : '';
  return {
    certificateId: cert.certificate_id,
    title: giveaway.title,
    eyebrow: 'TYCHE VERIFIABLE DRAW CERTIFICATE',
    lines: [
      `Certificate ${cert.certificate_id} · giveaway ${giveaway.public_id} · seal ${seal.seal_id}`,
      `Drawn ${formatUtc(cert.drawn_at)} from drand round ${beacon.round}`,
    ],
    note: {
      tone: 'assurance',
      lead: `${cert.algorithm}: the winners come from a public drand round that did not exist when the entrant list was sealed.`,
      text:
        `The ${seal.entrants.count} entrants were sealed and signed at ${formatUtc(seal.sealed_at)}, committing to ` +
        `round ${seal.beacon.round}, due at ${formatUtc(seal.beacon.round_at)}. Nothing else enters the draw: ` +
        'anyone can recompute the seed and the winners from this certificate, and each winner’s inclusion ' +
        'proof ties them to the sealed list.',
    },
    sections: [
      {
        heading: 'Seal',
        rows: [
          ['Entrants', `${seal.entrants.count}, sealed ${formatUtc(seal.sealed_at)}`, false],
          ['Entrants root', seal.entrants.root, true],
          ['Requested', `${giveaway.winners_count} winners, ${giveaway.reserve_count} reserves`, false],
          ['Seal hash', seal.hash, true],
          ['Transparency log', logEntryText(cert, 'seal_log_index'), false],
          ['Seal signature', `${seal.signature.alg} by key ${seal.signature.kid}`, false],
        ],
      },
      {
        heading: 'drand round',
        rows: [
          ['Chain', `${beacon.chain_hash}${quicknet}`, true],
          [
            'Round',
            `${beacon.round}, due ${formatUtc(seal.beacon.round_at)} (newest round at sealing: ${seal.beacon.after_round})`,
            false,
          ],
          ['Randomness', beacon.randomness, true],
          ['BLS signature', beacon.signature, true],
        ],
      },
      {
        heading: 'Draw',
        rows: [
          ['Algorithm', `${cert.algorithm}, specified at ${specUrl}`, false],
          ['Seed', cert.seed, true],
          ['Certificate hash', cert.hash, true],
          ['Transparency log', logEntryText(cert, 'log_index'), false],
          ['Signature', `${cert.signature.alg} by key ${cert.signature.kid}`, false],
          ['Signature value', cert.signature.value, true],
        ],
      },
    ],
    columns: [
      { title: '#', width: 26 },
      { title: 'Entrant', width: 112 },
      { title: 'Telegram ID', width: 78 },
      { title: 'Leaf hash', width: 252, mono: true },
      { title: 'Proof', width: 43 },
    ],
    winners: cert.winners.map(entrantCells),
    reserves: cert.reserves.map(entrantCells),
    amended: amendedContent(cert, entrantCells),
    footer:
      `Check it: scan the QR code or open ${pageUrl} and press “Verify this draw”, or download ` +
      `${verifierUrl(pageUrl)} and run: node tyche-verify.mjs ${pageUrl}`,
  };
}
