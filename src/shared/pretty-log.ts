// Log lines for a person at a terminal: pino's JSON records, one short line each. Only a
// terminal gets these; everything else (journald, files, collectors) keeps the JSON, which is
// written without this detour.

/** pino's numeric levels and how a line names them. */
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const COLORS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };

/** Fields a line shows in its own place (or drops: pid and hostname say nothing at a terminal). */
const PLACED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime']);

interface LogRecord {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function clock(time: number | undefined): string {
  const at = new Date(time ?? Date.now());
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}

/** A value as `key=value` shows it: bare when it is one word, else as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** An error on one line: its type and message, and where it was thrown (the stack's first frame). */
function errorText(err: NonNullable<LogRecord['err']>): string {
  const frame = /\n\s+at (.+)/.exec(err.stack ?? '')?.[1];
  return `${err.type ?? 'Error'}: ${err.message ?? ''}${frame ? ` (at ${frame})` : ''}`;
}

/**
 * A writable pino can log to: each JSON record it receives goes to `out` as one line of time,
 * level, message, request id, method, URL, status and duration, then the other fields as
 * key=value.
 */
export function prettyLogStream(out: { write(text: string): unknown }, options: { color: boolean }) {
  const paint = (level: number, text: string) =>
    options.color && COLORS[level] ? `\u001b[${COLORS[level]}m${text}\u001b[39m` : text;

  function format(record: LogRecord): string {
    const level = record.level ?? 30;
    const req = record.reqId === undefined ? undefined : String(record.reqId);
    const parts = [clock(record.time), paint(level, LEVELS[level] ?? String(level)), record.msg ?? ''];
    if (req !== undefined) parts.push(`[${req}]`);
    if (record.req?.method) parts.push(record.req.method);
    if (record.req?.url) parts.push(record.req.url);
    if (record.res?.statusCode !== undefined) parts.push(String(record.res.statusCode));
    if (typeof record.responseTime === 'number') parts.push(`${record.responseTime.toFixed(1)} ms`);
    for (const [key, value] of Object.entries(record)) {
      if (PLACED.has(key) || value === undefined) continue;
      parts.push(
        key === 'err' && value && typeof value === 'object'
          ? `err=${shown(errorText(value))}`
          : `${key}=${shown(value)}`,
      );
    }
    return `${parts.filter((part) => part !== '').join(' ')}\n`;
  }

  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (line === '') continue;
        let record: LogRecord;
        try {
          record = JSON.parse(line) as LogRecord;
        } catch {
          out.write(`${line}\n`);
          continue;
        }
        out.write(format(record));
      }
    },
  };
}
