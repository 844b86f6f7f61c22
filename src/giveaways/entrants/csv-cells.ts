/** The cells of the participants report (CONTRACT §3): RFC 4180 with spreadsheet formula injection neutralized. */

const NEEDS_QUOTES = /[",\r\n]/;

/** = + - @ tab CR: spreadsheets run a cell starting with one of these as a formula. */
function startsLikeFormula(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

export function csvCell(value: string | null | undefined): string {
  if (value == null || value === '') return '';
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

/**
 * An entrant's line of the report up to its last cell (`is_winner`, known only after the draw):
 * `telegram_id,username,first_name,joined_at,`.
 */
export function csvCells(
  id: number | string,
  username: string | null,
  firstName: string | null,
  joinedAt: number,
): string {
  return `${id},${csvCell(username)},${csvCell(firstName)},${csvTime(joinedAt)},`;
}
