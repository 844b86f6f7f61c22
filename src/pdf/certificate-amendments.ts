// What an amended certificate's PDF adds (CONTRACT §14): the winners as they stand after the
// amendments, shown first, and the history of replacements — who, by which reserve, why, when,
// the owner's note — shown after the draw, on a second page when the first has no room left.

import type { Translate } from '../i18n/catalogue.ts';
import { amendmentsOf, entrantName, historyRows, winnersAsAmended } from '../proof/amendment-history.ts';
import { AMENDMENT_REASONS } from '../proof/amendments.ts';
import type { CertificateV2, EntrantWinner } from '../proof/v2-types.ts';
import { formatUtc } from './certificate-text.ts';

export interface AmendedContent {
  count: number;
  /** Rows in the certificate's winner columns. */
  winners: string[][];
  history: string[];
}

export function amendedContent(
  cert: CertificateV2,
  cells: (w: EntrantWinner) => string[],
  t: Translate,
): AmendedContent | undefined {
  const amendments = amendmentsOf(cert);
  if (amendments.length === 0) return undefined;
  const history = historyRows(cert, amendments).map((row) => {
    const code = amendments.find((a) => a.sequence === row.sequence)?.reason;
    const reason = (AMENDMENT_REASONS as readonly unknown[]).includes(code)
      ? t(`reason-${String(code)}`)
      : row.reason;
    const line = t('am-line', {
      position: row.position,
      replaced: row.replaced ? entrantName(row.replaced) : t('am-unlisted'),
      reserve: row.reservePosition,
      by: row.by ? entrantName(row.by) : t('am-unlisted'),
    });
    const note = row.note === null ? '' : ` ${t('am-note')} “${row.note}”`;
    return `${row.sequence}. ${formatUtc(row.amendedAt)}: ${line} ${t('am-reason')} ${reason}.${note}`;
  });
  return {
    count: amendments.length,
    winners: winnersAsAmended(cert, amendments).map(cells),
    history,
  };
}
