// What `tyche verify` prints after the checks of an amended certificate (CONTRACT §14): the
// winners as they stand now, then every amendment in sequence — who was replaced, by which
// reserve, why, when, and the owner's note. The checks above say whether to believe it.

import {
  amendmentsOf,
  entrantName,
  historyLine,
  historyRows,
  winnersAsAmended,
} from '../../proof/amendment-history.ts';
import { splitLogAnnotations } from '../../proof/log-entry.ts';
import { isRecord } from '../../proof/report.ts';
import type { EntrantWinner } from '../../proof/v2-types.ts';

export function amendmentSummary(published: unknown): string[] {
  const amendments = amendmentsOf(published);
  const { signed } = splitLogAnnotations(published);
  if (amendments.length === 0 || !isRecord(signed)) return [];
  if (!Array.isArray(signed.winners) || !Array.isArray(signed.reserves)) return [];
  const certificate = signed as { winners: EntrantWinner[]; reserves: EntrantWinner[] };
  const lines = ['Winners as amended:'];
  for (const w of winnersAsAmended(certificate, amendments)) lines.push(`  #${w.position} ${entrantName(w)}`);
  lines.push(`Amendments (${amendments.length}):`);
  for (const row of historyRows(certificate, amendments)) {
    const note = row.note === null ? '' : ` — note: ${JSON.stringify(row.note)}`;
    lines.push(`  ${row.sequence}. ${row.amendedAt}: ${historyLine(row)}${note}`);
  }
  return lines;
}
