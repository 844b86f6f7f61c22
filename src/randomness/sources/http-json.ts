import { SourceError, type SourceName } from '../source.ts';
import { systemTimers, type Timers } from '../timers.ts';

export type FetchFn = typeof globalThis.fetch;

/** How an HTTP source reaches its upstream; every such source's options carry these. */
export interface HttpSourceOptions {
  timeoutMs: number;
  fetch?: FetchFn;
  /** What runs the timeout; Node's timers unless a test drives them. */
  timers?: Timers;
}

export interface JsonRequest extends HttpSourceOptions {
  source: SourceName;
  url: string | URL;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

// Real bodies are a few KiB (ANU 1024 uint8 ≈ 4 KiB, a NIST pulse ≈ 3.6 KiB); anything far larger is
// not one of the formats we read.
const MAX_BODY_CHARS = 256 * 1024;
const SNIPPET_CHARS = 200;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

export function assertTimeout(timeoutMs: number): void {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  }
}

/**
 * GETs a URL and parses its body as JSON. Every way this can go wrong (timeout, caller abort,
 * transport error, non-2xx, oversized or non-JSON body) becomes a SourceError; the timeout covers
 * the body as well as the headers.
 */
export async function fetchJson(req: JsonRequest): Promise<unknown> {
  const timeout = (req.timers ?? systemTimers).timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
  const fetchFn = req.fetch ?? globalThis.fetch;
  let status: number;
  let text: string;
  try {
    // Racing the signal as well keeps the deadline even with an injected fetch that ignores it.
    const res = await raceAbort(
      fetchFn(req.url, { headers: { accept: 'application/json', ...req.headers }, signal }),
      signal,
    );
    status = res.status;
    const declared = Number(res.headers.get('content-length'));
    if (declared > MAX_BODY_CHARS) {
      await res.body?.cancel().catch(() => {});
      throw new SourceError(req.source, `HTTP ${status}: body of ${declared} bytes is too large`);
    }
    text = await raceAbort(res.text(), signal);
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(req.source, describeFailure(err, timeout, req), { cause: err });
  }
  if (status < 200 || status > 299) {
    throw new SourceError(req.source, `HTTP ${status}: ${snippet(text)}`);
  }
  if (text.length > MAX_BODY_CHARS) {
    throw new SourceError(req.source, `body of ${text.length} characters is too large`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SourceError(req.source, `response is not JSON: ${snippet(text)}`, { cause: err });
  }
}

/** fetchJson with the timeout, fetch and timers a source was configured with. */
export function fetchSourceJson(
  options: HttpSourceOptions,
  req: Omit<JsonRequest, keyof HttpSourceOptions>,
): Promise<unknown> {
  return fetchJson({ timeoutMs: options.timeoutMs, fetch: options.fetch, timers: options.timers, ...req });
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    // Always subscribed, so the loser's later rejection is never an unhandled one.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeFailure(err: unknown, timeout: AbortSignal, req: JsonRequest): string {
  if (timeout.aborted) return `no answer within ${req.timeoutMs} ms`;
  if (req.signal?.aborted) return 'request aborted by caller';
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return `request failed: ${detail}`;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
}

/** Typed access to a parsed JSON object; each failed check is a SourceError naming the field. */
export interface FieldReader {
  raw(key: string): unknown;
  object(key: string): FieldReader;
  array(key: string): unknown[];
  string(key: string): string;
  int(key: string, min?: number, max?: number): number;
  /** Hex (either case) decoded to bytes; exactly `byteLength` bytes when given, else at least one. */
  hex(key: string, byteLength?: number): Uint8Array;
}

export function readFields(source: SourceName, value: unknown, path: string): FieldReader {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SourceError(source, `${path} must be a JSON object`);
  }
  const obj = value as Record<string, unknown>;
  const fail = (key: string, expected: string): never => {
    throw new SourceError(source, `${path}.${key} must be ${expected}, got ${describe(obj[key])}`);
  };
  const reader: FieldReader = {
    raw: (key) => obj[key],
    object: (key) => readFields(source, obj[key], `${path}.${key}`),
    array: (key) => (Array.isArray(obj[key]) ? obj[key] : fail(key, 'an array')),
    string: (key) => (typeof obj[key] === 'string' ? obj[key] : fail(key, 'a string')),
    int(key, min = 0, max = Number.MAX_SAFE_INTEGER) {
      const v = obj[key];
      return Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max
        ? (v as number)
        : fail(key, `an integer in [${min}, ${max}]`);
    },
    hex(key, byteLength) {
      const v = obj[key];
      const expected = byteLength === undefined ? 'hex' : `${byteLength * 2} hex characters`;
      if (typeof v !== 'string' || !HEX.test(v) || v.length === 0) return fail(key, expected);
      if (byteLength !== undefined && v.length !== byteLength * 2) return fail(key, expected);
      return new Uint8Array(Buffer.from(v, 'hex'));
    },
  };
  return reader;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  const json = JSON.stringify(v) ?? String(v);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}
