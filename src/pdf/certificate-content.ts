import { type Language, pagesTranslatorFor, type Translate } from '../i18n/catalogue.ts';
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
  /** The layout's own words, in the certificate's language; `{hidden}` is filled by the layout. */
  labels: LayoutLabels;
}

export interface LayoutLabels {
  winners: string;
  winnersAsDrawn: string;
  reserves: string;
  moreWinners: string;
  moreReserves: string;
  amendedWinners: string;
  moreAmended: string;
  history: string;
  moreHistory: string;
}

function layoutLabels(t: Translate, pageUrl: string, amendments: number): LayoutLabels {
  const more = (key: string) => t(key, { hidden: '{hidden}', url: pageUrl });
  return {
    winners: t('pdf-winners'),
    winnersAsDrawn: t('pdf-winners-as-drawn'),
    reserves: t('pdf-reserves'),
    moreWinners: more('pdf-more-winners'),
    moreReserves: more('pdf-more-reserves'),
    amendedWinners: t('pdf-amended-winners', { count: amendments }),
    moreAmended: more('pdf-more-amended'),
    history: t('am-history'),
    moreHistory: more('pdf-more-history'),
  };
}

const username = (name: string | null | undefined, t: Translate) => (name ? `@${name}` : t('person-no-name'));

/** Where the standalone verifier is served: beside /verify/ under the same base URL. */
export function verifierUrl(pageUrl: string): string {
  return `${pageUrl.replace(/\/verify\/[^/]*$/, '')}/tyche-verify.mjs`;
}

/** tyche-draw-v1: the operator's randomness, the seed and the winners, under a warning. */
export function contentV1(
  cert: CertificateV1,
  pageUrl: string,
  specUrl: string,
  language: Language = 'en',
): CertificateContent {
  const t = pagesTranslatorFor(language);
  const r = cert.randomness;
  const refUrl = sourceReferenceUrl(r.source, r.source_reference);
  // Any member may be missing from a certificate altered in the store: it still renders.
  const row = (label: string, value: unknown, mono: boolean): Row => [label, String(value ?? '—'), mono];
  return {
    certificateId: cert.certificate_id,
    title: cert.title,
    eyebrow: t('pdf-eyebrow-v1'),
    lines: [
      t('pdf-line-v1', { id: cert.certificate_id, giveaway: cert.public_id }),
      t('pdf-drawn', { at: formatUtc(cert.drawn_at) }),
    ],
    note: {
      tone: 'warning',
      lead: `${cert.algorithm}: ${t('operator-trust')}.`,
      text: t('pdf-v1-note'),
    },
    sections: [
      {
        rows: [
          row(t('v-algorithm'), t('pdf-specified', { algorithm: cert.algorithm, url: specUrl }), false),
          row(
            t('v1-participants'),
            t('pdf-participants-value', { count: cert.participants_count, winners: cert.winners_count }),
            false,
          ),
          row(t('v1-participants-hash'), cert.participants_hash, true),
          row(t('v1-source'), `${describeSource(r.source)} (${r.source})`, false),
          row(
            t('v1-source-reference'),
            refUrl && refUrl !== r.source_reference
              ? `${r.source_reference} (${refUrl})`
              : r.source_reference,
            true,
          ),
          row(t('v1-operation'), `${r.request_id}, ${formatUtc(r.obtained_at)}`, false),
          row(t('v1-r'), r.bytes, true),
          ...(r.beacon_value !== undefined ? [row(t('v1-beacon-value'), r.beacon_value, true)] : []),
          ...(r.system_entropy !== undefined ? [row(t('v1-system-entropy'), r.system_entropy, true)] : []),
          row(t('v-seed'), cert.seed, true),
          row(t('v-index'), cert.winners.map((w) => `#${w.position}: ${w.index}`).join(', '), false),
          row(t('v-certificate-hash'), cert.hash, true),
          row(t('log'), logEntryText(cert, 'log_index', t), false),
          row(
            t('signature'),
            `${t('signature-by', { alg: String(cert.signature?.alg) })} ${cert.signature?.kid}`,
            false,
          ),
          row(t('signature-value'), String(cert.signature?.value), true),
        ],
      },
    ],
    columns: [
      { title: '#', width: 34 },
      { title: t('col-name'), width: 297 },
      { title: t('col-telegram-id'), width: 180 },
    ],
    winners: cert.winners.map((w) => [String(w.position), username(w.username, t), String(w.telegram_id)]),
    reserves: [],
    footer: t('pdf-footer', { page: pageUrl, verifier: verifierUrl(pageUrl) }),
    labels: layoutLabels(t, pageUrl, 0),
  };
}

const entrantCells =
  (t: Translate) =>
  (w: EntrantWinner): string[] => [
    String(w.position),
    username(w.username, t),
    String(w.telegram_id),
    w.leaf_hash,
    t('pdf-proof-hashes', { count: w.proof.length }),
  ];

/** tyche-draw-v2: the seal, the drand round, the seed, winners and reserves. */
export function contentV2(
  cert: CertificateV2,
  pageUrl: string,
  specUrl: string,
  language: Language = 'en',
): CertificateContent {
  const t = pagesTranslatorFor(language);
  const cells = entrantCells(t);
  const amended = amendedContent(cert, cells, t);
  const { seal, beacon } = cert;
  const { giveaway } = seal;
  const quicknet = beacon.chain_hash === DRAND_QUICKNET.chainHash ? ' (quicknet)' : '';
  return {
    certificateId: cert.certificate_id,
    title: giveaway.title,
    eyebrow: t('pdf-eyebrow-v2'),
    lines: [
      t('pdf-line-v2', { id: cert.certificate_id, giveaway: giveaway.public_id, seal: seal.seal_id }),
      t('pdf-drawn-round', { at: formatUtc(cert.drawn_at), round: beacon.round }),
    ],
    note: {
      tone: 'assurance',
      lead: `${cert.algorithm}: ${t('pdf-v2-lead')}`,
      text: t('pdf-v2-note', {
        count: seal.entrants.count,
        sealed: formatUtc(seal.sealed_at),
        round: seal.beacon.round,
        due: formatUtc(seal.beacon.round_at),
      }),
    },
    sections: [
      {
        heading: t('seal-heading'),
        rows: [
          [
            t('g-entrants'),
            `${seal.entrants.count}, ${t('pdf-sealed', { at: formatUtc(seal.sealed_at) })}`,
            false,
          ],
          [t('seal-root'), seal.entrants.root, true],
          [
            t('v-requested'),
            t('v-requested-value', { winners: giveaway.winners_count, reserves: giveaway.reserve_count }),
            false,
          ],
          [t('seal-hash'), seal.hash, true],
          [t('log'), logEntryText(cert, 'seal_log_index', t), false],
          [
            t('v-seal-signature'),
            `${t('signature-by', { alg: seal.signature.alg })} ${seal.signature.kid}`,
            false,
          ],
        ],
      },
      {
        heading: t('v-round-heading'),
        rows: [
          [t('v-chain'), `${beacon.chain_hash}${quicknet}`, true],
          [
            t('v-round'),
            t('pdf-round-value', {
              round: beacon.round,
              due: formatUtc(seal.beacon.round_at),
              after: seal.beacon.after_round,
            }),
            false,
          ],
          [t('v-randomness'), beacon.randomness, true],
          [t('v-bls-signature'), beacon.signature, true],
        ],
      },
      {
        heading: t('v-draw-heading'),
        rows: [
          [t('v-algorithm'), t('pdf-specified', { algorithm: cert.algorithm, url: specUrl }), false],
          [t('v-seed'), cert.seed, true],
          [t('v-certificate-hash'), cert.hash, true],
          [t('log'), logEntryText(cert, 'log_index', t), false],
          [t('signature'), `${t('signature-by', { alg: cert.signature.alg })} ${cert.signature.kid}`, false],
          [t('signature-value'), cert.signature.value, true],
        ],
      },
    ],
    columns: [
      { title: '#', width: 26 },
      { title: t('col-name'), width: 112 },
      { title: t('col-telegram-id'), width: 78 },
      { title: t('v-leaf-hash'), width: 252, mono: true },
      { title: t('pdf-proof'), width: 43 },
    ],
    winners: cert.winners.map(cells),
    reserves: cert.reserves.map(cells),
    amended,
    footer: t('pdf-footer-v2', { page: pageUrl, verifier: verifierUrl(pageUrl) }),
    labels: layoutLabels(t, pageUrl, amended?.count ?? 0),
  };
}
