// How the verifier reads what it checks: a URL or a file, each failure worded for the person who
// typed it. Runs under `tyche verify` and inside tyche-verify.mjs (plain Node >= 20), so it uses
// only fetch and node:fs.

import { readFileSync } from 'node:fs';

/** Exit status when the inputs could not be fetched or read, so nothing could be checked. */
export const EXIT_CANNOT_CHECK = 3;

const FETCH_TIMEOUT_MS = 15_000;

/** An input could not be fetched or read: exit status 3, never a verdict on the draw. */
export class CannotCheck extends Error {
  override name = 'CannotCheck';
}

export type Source = { url: string } | { file: string };

export const isUrl = (text: string) => /^https?:\/\//i.test(text);
export const sourceOf = (text: string): Source => (isUrl(text) ? { url: text } : { file: text });
export const whereOf = (source: Source) => ('file' in source ? source.file : source.url);

export function readTextFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CannotCheck(`cannot read the ${what} file ${file}: ${(error as Error).message}`);
  }
}

function parseJson(text: string, what: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CannotCheck(`the ${what} at ${where} is not JSON`);
  }
}

async function get(url: string): Promise<Response> {
  try {
    return await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    throw new CannotCheck(
      `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
}

/**
 * The JSON at `url`. A status listed in `expected` is returned with no body rather than thrown:
 * a 404 can be an answer (a leaf that is not in the list), not a failure to read.
 */
export async function fetchJson(
  url: string,
  what: string,
  expected: readonly number[] = [],
): Promise<{ status: number; json?: unknown }> {
  const response = await get(url);
  if (expected.includes(response.status)) {
    await response.body?.cancel();
    return { status: response.status };
  }
  if (response.status === 404) throw new CannotCheck(`no ${what} at ${url} (404 Not Found)`);
  if (!response.ok) throw new CannotCheck(`${url} answered ${response.status} ${response.statusText}`);
  return { status: response.status, json: parseJson(await response.text(), what, url) };
}

export async function loadJson(source: Source, what: string): Promise<unknown> {
  if ('url' in source) return (await fetchJson(source.url, what)).json;
  return parseJson(readTextFile(source.file, what), what, source.file);
}
