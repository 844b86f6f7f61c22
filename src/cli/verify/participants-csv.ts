import type { TelegramId } from '../../proof/draw-v1.ts';

export interface CsvParticipant {
  telegram_id: TelegramId;
  username: string;
}

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (quoted) throw new SyntaxError('a quoted field is not closed');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Undoes the export's spreadsheet-injection guard: a `'` put before =, +, -, @, tab or CR. */
export function unguardCell(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

function parseTelegramId(raw: string, line: number): TelegramId {
  if (!/^[1-9][0-9]*$/.test(raw))
    throw new SyntaxError(`row ${line}: telegram_id ${JSON.stringify(raw)} is not a positive integer`);
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : BigInt(raw);
}

/**
 * Reads the participants.csv export (telegram_id,username,first_name,joined_at,is_winner), with
 * or without a BOM. Columns are found by header name, so extra or reordered columns are fine.
 */
export function parseParticipantsCsv(text: string): CsvParticipant[] {
  const rows = parseCsv(text).filter((r) => !(r.length === 1 && r[0] === ''));
  const header = rows.shift()?.map((h) => h.trim().toLowerCase());
  const idColumn = header?.indexOf('telegram_id') ?? -1;
  if (!header || idColumn === -1) throw new SyntaxError('the header row has no telegram_id column');
  const nameColumn = header.indexOf('username');
  return rows.map((row, i) => ({
    telegram_id: parseTelegramId(unguardCell(row[idColumn] ?? '').trim(), i + 2),
    username: nameColumn === -1 ? '' : unguardCell(row[nameColumn] ?? ''),
  }));
}
