import { csvCells } from '../entrants/csv-cells.ts';
import type { CsvRow } from '../entrants/participant-csv-order.ts';

/** The participants report format (CONTRACT §3); its cells are written by `entrants/csv-cells.ts`. */

export const CSV_HEADER = 'telegram_id,username,first_name,joined_at,is_winner\r\n';
export const UTF8_BOM = '\uFEFF';

export interface CsvParticipantLine {
  telegram_id: number;
  username: string | null;
  first_name: string | null;
  joined_at: number;
}

/** The last cell and the line's end after an entrant's cells. */
const csvLineEnd = (isWinner: boolean) => (isWinner ? 'true\r\n' : 'false\r\n');

export function csvLine(p: CsvParticipantLine, isWinner: boolean): string {
  return csvCells(p.telegram_id, p.username, p.first_name, p.joined_at) + csvLineEnd(isWinner);
}

export function csvRowLine(row: CsvRow, isWinner: boolean): string {
  return csvCells(row[0], row[1], row[2], row[3]) + csvLineEnd(isWinner);
}
