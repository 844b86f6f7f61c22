import { randomUUID } from 'node:crypto';
import { type Clock, type RandomSource, type SourceBatch, SourceError, systemClock } from '../source.ts';
import { assertTimeout, fetchSourceJson, type HttpSourceOptions, readFields } from './http-json.ts';

export const ANU_KEYLESS_URL = 'https://qrng.anu.edu.au/API/jsonI.php';
export const ANU_KEYED_URL = 'https://api.quantumnumbers.anu.edu.au';
/** Both ANU endpoints cap `length` at 1024. */
export const ANU_MAX_LENGTH = 1024;

export interface AnuSourceOptions extends HttpSourceOptions {
  /** Defaults to the keyed endpoint when `apiKey` is set, else the keyless one. */
  url?: string;
  apiKey?: string;
  /** Bytes per call, 1–1024; default 1024 (one call a minute is all keyless ANU allows). */
  length?: number;
  clock?: Clock;
}

export function createAnuSource(options: AnuSourceOptions): RandomSource {
  const { apiKey, timeoutMs, length = ANU_MAX_LENGTH, clock = systemClock } = options;
  assertTimeout(timeoutMs);
  if (!Number.isInteger(length) || length < 1 || length > ANU_MAX_LENGTH) {
    throw new RangeError(`ANU length must be an integer in [1, ${ANU_MAX_LENGTH}], got ${length}`);
  }
  const url = new URL(options.url ?? (apiKey ? ANU_KEYED_URL : ANU_KEYLESS_URL));
  url.searchParams.set('length', String(length));
  url.searchParams.set('type', 'uint8');
  const headers = apiKey ? { 'x-api-key': apiKey } : undefined;

  return {
    name: 'anu',
    kind: 'private',
    async fetch(signal?: AbortSignal): Promise<SourceBatch> {
      const body = await fetchSourceJson(options, { source: 'anu', url, headers, signal });
      const bytes = parseAnuUint8(body, length);
      const fetchedAt = clock.now();
      // ANU gives no identifier for a batch, so we mint one; the caller records fetchedAt with it.
      return {
        source: 'anu',
        kind: 'private',
        bytes,
        reference: `anu:${randomUUID()}`,
        producedAt: fetchedAt,
        fetchedAt,
      };
    },
  };
}

/**
 * Reads a `type=uint8` answer of either ANU endpoint (keyless sends `length` as a number, keyed as a
 * string) and returns its first `wanted` values as bytes. `length` must agree with the data: both endpoints
 * always send it, so a mismatch means a body we do not understand.
 */
export function parseAnuUint8(body: unknown, wanted: number): Uint8Array {
  const fields = readFields('anu', body, 'body');
  if (fields.raw('success') !== true) {
    throw new SourceError('anu', `body.success is not true (${JSON.stringify(fields.raw('success'))})`);
  }
  const type = fields.raw('type');
  if (type !== 'uint8')
    throw new SourceError('anu', `body.type is ${JSON.stringify(type)}, expected "uint8"`);
  const data = fields.array('data');
  const declared = fields.raw('length');
  const declaredCount =
    typeof declared === 'string' && /^[0-9]+$/.test(declared) ? Number(declared) : declared;
  if (declaredCount !== data.length) {
    throw new SourceError(
      'anu',
      `body.length ${JSON.stringify(declared)} does not match ${data.length} values`,
    );
  }
  if (data.length < wanted) {
    throw new SourceError('anu', `got ${data.length} values, asked for ${wanted}`);
  }
  // Every value is checked, not only the ones kept: one bad value means the whole body is suspect.
  const bad = data.findIndex((v) => !Number.isInteger(v) || (v as number) < 0 || (v as number) > 255);
  if (bad !== -1) {
    throw new SourceError(
      'anu',
      `body.data[${bad}] is ${JSON.stringify(data[bad])}, not an integer in [0, 255]`,
    );
  }
  return Uint8Array.from(data.slice(0, wanted) as number[]);
}
