import type { ParticipantRepository } from '../entrants/participant.repository.ts';
import type { CsvPosition, CsvRow } from '../entrants/participant-csv.repository.ts';
import { CSV_HEADER, csvRowLine, UTF8_BOM } from './csv.ts';

/**
 * The participants report, read page by page as it is consumed: memory does not grow with the
 * participant count, and no connection is held while a slow client reads.
 */
export async function* participantCsvLines(
  participants: Pick<ParticipantRepository, 'csvPage'>,
  giveawayId: number,
  winners: ReadonlySet<number>,
  bom: boolean,
): AsyncGenerator<string> {
  yield (bom ? UTF8_BOM : '') + CSV_HEADER;
  const winnerIds = [...winners];
  let after: CsvPosition | undefined;
  for (;;) {
    const page = await participants.csvPage(giveawayId, after, winnerIds);
    const text = page.text ?? linesOf(page.rows ?? [], winners);
    if (text.length > 0) yield text;
    if (!page.more) return;
    after = page.last;
  }
}

function linesOf(rows: readonly CsvRow[], winners: ReadonlySet<number>): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) parts[i] = csvRowLine(rows[i], winners.has(rows[i][0]));
  return parts.join('');
}
