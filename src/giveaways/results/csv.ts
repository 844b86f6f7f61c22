import type { CsvRow } from '../entrants/participant-csv.repository.ts';

/** The participants report format (CONTRACT §3): RFC 4180 with spreadsheet formula injection neutralized. */

export const CSV_HEADER = 'telegram_id,username,first_name,joined_at,is_winner\r\n';
export const UTF8_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;

/** = + - @ tab CR: spreadsheets run a cell starting with one of these as a formula. */
function startsLikeFormula(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

export function csvCell(value: string | null): string {
  if (value === null || value === '') return '';
  const safe = startsLikeFormula(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

let lastSecond = Number.NaN;
let lastText = '';

/** `YYYY-MM-DDTHH:MM:SS` in UTC: ISO 8601 without fraction or zone, as the contract shows it. */
export function csvTime(epochMs: number): string {
  // Participants join in bursts: format each second once, not each row (a Date per row is
  // most of the cost of a million-row export).
  const second = Math.floor(epochMs / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastText = new Date(second * 1000).toISOString().slice(0, 19);
  }
  return lastText;
}

export interface CsvParticipantLine {
  telegram_id: number;
  username: string | null;
  first_name: string | null;
  joined_at: number;
}

function line(
  id: number | string,
  username: string | null,
  firstName: string | null,
  joinedAt: number,
  winner: boolean,
) {
  return `${id},${csvCell(username)},${csvCell(firstName)},${csvTime(joinedAt)},${winner ? 'true' : 'false'}\r\n`;
}

export function csvLine(p: CsvParticipantLine, isWinner: boolean): string {
  return line(p.telegram_id, p.username, p.first_name, p.joined_at, isWinner);
}

export function csvRowLine(row: CsvRow, isWinner: boolean): string {
  return line(row[0], row[1], row[2], row[3], isWinner);
}
