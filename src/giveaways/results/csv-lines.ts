import type { CsvPosition, ParticipantRepository } from '../entrants/participant.repository.ts';
import { CSV_HEADER, csvRowLine, UTF8_BOM } from './csv.ts';

export const CSV_PAGE_ROWS = 5000;

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
  let after: CsvPosition | undefined;
  for (;;) {
    const page = await participants.csvPage(giveawayId, after, CSV_PAGE_ROWS);
    const parts = new Array<string>(page.length);
    for (let i = 0; i < page.length; i++) parts[i] = csvRowLine(page[i], winners.has(page[i][0]));
    if (parts.length > 0) yield parts.join('');
    if (page.length < CSV_PAGE_ROWS) return;
    const last = page[page.length - 1];
    after = { second: Math.floor(last[3] / 1000), telegramId: last[0] };
  }
}
