// What an amended certificate's PDF adds (CONTRACT §14): the winners as they stand after the
// amendments, shown first, and the history of replacements — who, by which reserve, why, when,
// the owner's note — shown after the draw, on a second page when the first has no room left.

import { amendmentsOf, historyLine, historyRows, winnersAsAmended } from '../proof/amendment-history.ts';
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
): AmendedContent | undefined {
  const amendments = amendmentsOf(cert);
  if (amendments.length === 0) return undefined;
  const history = historyRows(cert, amendments).map((row) => {
    const note = row.note === null ? '' : ` Note: “${row.note}”`;
    return `${row.sequence}. ${formatUtc(row.amendedAt)}: ${historyLine(row)}.${note}`;
  });
  return {
    count: amendments.length,
    winners: winnersAsAmended(cert, amendments).map(cells),
    history,
  };
}
