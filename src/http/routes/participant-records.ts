import { createReadStream } from 'node:fs';
import type { ParticipantInput } from '../../giveaways/entrants/participants.ts';
import { AppError, type ErrorItem } from '../../shared/errors.ts';
import { parseJsonBody } from '../json-body.ts';
import { validatorCompiler } from '../validation.ts';
import { ParticipantSchema } from './participants.schemas.ts';

export type UploadFormat = 'csv' | 'ndjson';

/** Far longer than any valid line (two names of 256 characters, escaped); a longer one is refused unread. */
const MAX_LINE_CHARS = 16_384;
const COLUMNS = Object.keys(ParticipantSchema.properties);

/** What is wrong with one line: the codes of all lines decide the answer's status (checkUpload). */
export type LineCode = 'invalid_type' | 'invalid_json' | 'missing_parameter' | 'invalid_parameter';

/** A participant read from its line, or what is wrong with that line. */
export type UploadRecord =
  | { line: number; participant: ParticipantInput }
  | { line: number; code: LineCode; errors: ErrorItem[] };

type Check = (value: unknown) => { value?: unknown; error?: AppError };
/**
 * The JSON body's own rules, item by item: the same validator, so every form refuses the same
 * values with the same 400/422 split. CSV cells are text, converted as query strings are (a
 * plain decimal integer becomes a number, anything else stays text and fails as a type).
 */
const compile = (httpPart: 'body' | 'querystring') =>
  validatorCompiler({ schema: ParticipantSchema, method: 'POST', url: '', httpPart }) as Check;
const checkJson = compile('body');
const checkCells = compile('querystring');

function problem(line: number, code: LineCode, parameter: string | undefined, message: string): UploadRecord {
  return {
    line,
    code,
    errors: [{ parameter: parameter ? `line ${line}: ${parameter}` : `line ${line}`, message }],
  };
}

function checked(line: number, value: unknown, check: Check): UploadRecord {
  const { value: read, error } = check(value);
  if (!error) return { line, participant: read as ParticipantInput };
  const errors = (error.errors ?? []).map((e) => ({
    parameter: `line ${line}: ${e.parameter}`,
    message: e.message,
  }));
  return { line, code: error.code as LineCode, errors };
}

type Line = { text: string; tooLong: boolean };

/**
 * The lines of a UTF-8 file, a read's worth at a time, without their line ends: memory holds one
 * read and one line at most. A line over MAX_LINE_CHARS is marked and its text dropped unread. A
 * leading byte order mark is dropped.
 */
async function* linesOf(path: string): AsyncGenerator<Line[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let carry = '';
  let count = 0;
  const ended = (raw: string): Line => {
    count++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    return text.length > MAX_LINE_CHARS ? { text: '', tooLong: true } : { text, tooLong: false };
  };
  // Neither the carried start of a line nor a piece of it grows past MAX_LINE_CHARS + 1.
  const take = (text: string, out: Line[]) => {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      out.push(ended(carry + text.slice(start, Math.min(end, start + MAX_LINE_CHARS + 1))));
      carry = '';
      start = end + 1;
    }
    carry += text.slice(start, start + Math.max(0, MAX_LINE_CHARS + 1 - carry.length));
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    let text: string;
    try {
      text = decoder.decode(chunk as Buffer, { stream: true });
    } catch {
      throw new AppError('invalid_parameter', `The upload is not valid UTF-8 (after line ${count})`);
    }
    const out: Line[] = [];
    take(text, out);
    yield out;
  }
  const out: Line[] = [];
  take(decoder.decode(), out);
  if (carry !== '') out.push(ended(carry));
  yield out;
}

/** The fields of one CSV record (RFC 4180), or what is wrong with its quoting. */
function fieldsOf(text: string): string[] | string {
  if (!text.includes('"')) return text.split(',');
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (text[at] === '"') {
      let value = '';
      let from = at + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) return 'has a quoted field without its closing quote';
        value += text.slice(from, quote);
        if (text[quote + 1] !== '"') {
          at = quote + 1;
          break;
        }
        value += '"';
        from = quote + 2;
      }
      fields.push(value);
      if (at === text.length) return fields;
      if (text[at] !== ',') return 'has text after the closing quote of a field';
      at++;
    } else {
      const comma = text.indexOf(',', at);
      const value = comma === -1 ? text.slice(at) : text.slice(at, comma);
      if (value.includes('"')) return 'has a quote inside a field that does not start with one';
      fields.push(value);
      if (comma === -1) return fields;
      at = comma + 1;
    }
  }
}

/** How many `"` a text has: a record whose count is odd goes on at the next line. */
function quotes(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) n++;
  return n;
}

const tooLongProblem = (line: number) =>
  problem(line, 'invalid_parameter', undefined, `is longer than ${MAX_LINE_CHARS} characters`);

/**
 * CSV records from lines: the first names the columns, a quoted field may span lines. When the
 * header cannot be read, the rows cannot be either: only the header's problem is reported.
 */
function csvReader() {
  let columns: string[] | undefined;
  let headerBroken = false;
  let pending: { line: number; text: string; quotes: number } | undefined;

  function header(line: number, fields: string[]): UploadRecord | undefined {
    const names = fields.map((f) => f.trim());
    const unknown = names.find((name) => !COLUMNS.includes(name));
    if (unknown !== undefined) {
      const message = `is not a column; the columns are ${COLUMNS.join(', ')}`;
      return problem(line, 'invalid_parameter', JSON.stringify(unknown), message);
    }
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated !== undefined) return problem(line, 'invalid_parameter', repeated, 'is named twice');
    if (!names.includes('telegram_id'))
      return problem(line, 'missing_parameter', 'telegram_id', 'the header must name this column');
    columns = names;
    return undefined;
  }

  function row(line: number, text: string): UploadRecord | undefined {
    const fields = fieldsOf(text);
    if (typeof fields === 'string') return problem(line, 'invalid_parameter', undefined, fields);
    if (!columns) return header(line, fields);
    if (fields.length !== columns.length) {
      const message = `has ${fields.length} fields; the header has ${columns.length}`;
      return problem(line, 'invalid_parameter', undefined, message);
    }
    const cells: Record<string, string> = {};
    for (let i = 0; i < fields.length; i++) if (fields[i] !== '') cells[columns[i]] = fields[i];
    return checked(line, cells, checkCells);
  }

  /** The record a complete text makes; the first one is the header. */
  function record(line: number, text: string | undefined): UploadRecord | undefined {
    if (headerBroken) return undefined;
    const first = !columns;
    const made = text === undefined ? tooLongProblem(line) : row(line, text);
    if (first && made) headerBroken = true;
    return made;
  }

  return {
    /** The record a line completes, if any. */
    push(line: number, { text, tooLong }: Line): UploadRecord | undefined {
      if (pending) {
        const started = pending;
        started.text += `\n${text}`;
        started.quotes += quotes(text);
        if (tooLong || started.text.length > MAX_LINE_CHARS) {
          pending = undefined;
          return record(started.line, undefined);
        }
        if (started.quotes % 2 === 1) return undefined;
        pending = undefined;
        return record(started.line, started.text);
      }
      if (tooLong) return record(line, undefined);
      if (text === '') return undefined;
      const count = quotes(text);
      if (count % 2 === 0) return record(line, text);
      pending = { line, text, quotes: count };
      return undefined;
    },
    /** What the end of the upload leaves: a quoted field never closed. */
    end(): UploadRecord | undefined {
      return pending ? record(pending.line, pending.text) : undefined;
    },
  };
}

function ndjsonRecord(line: number, { text, tooLong }: Line): UploadRecord | undefined {
  if (tooLong) return tooLongProblem(line);
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = parseJsonBody(text);
  } catch (error) {
    return problem(line, 'invalid_json', undefined, `is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return problem(line, 'invalid_json', undefined, 'must be a JSON object');
  }
  return checked(line, value, checkJson);
}

/**
 * The records of an upload, a read's worth at a time, each with its line (1 is the first line
 * of the file, a CSV's header). Blank lines are skipped.
 */
export async function* uploadRecords(path: string, format: UploadFormat): AsyncGenerator<UploadRecord[]> {
  const csv = format === 'csv' ? csvReader() : undefined;
  let line = 0;
  for await (const lines of linesOf(path)) {
    const records: UploadRecord[] = [];
    for (const text of lines) {
      line++;
      const record = csv ? csv.push(line, text) : ndjsonRecord(line, text);
      if (record) records.push(record);
    }
    if (records.length > 0) yield records;
  }
  const last = csv?.end();
  if (last) yield [last];
}
