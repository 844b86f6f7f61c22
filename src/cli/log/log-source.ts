// Where `tyche log verify` reads a log: the server's base for the URL it was given (a server, its
// log, or a static mirror of it), the checkpoint, and the log key every verifier picks (CONTRACT §8).

import { KEYS_PATH } from '../../proof/keys-path.ts';
import { parseVerifierKey } from '../../proof/note.ts';
import { isRecord } from '../../proof/report.ts';
import { type Io, UsageError } from '../command.ts';
import { readPin } from '../verify/log-pin.ts';
import { CannotCheck, fetchJson } from '../verify/verify-inputs.ts';

type LogKey = { key: string; origin: string; source: string } | { problem: string };

export async function fetchText(url: string, what: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new CannotCheck(`cannot reach ${url}: ${(error as Error).message}`);
  }
  if (!res.ok) throw new CannotCheck(`${url} answered ${res.status} for the ${what}`);
  return res.text();
}

/** The server's base for a log URL (`…/log`) or the server's own URL. */
export function serverOf(url: string): string {
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`${JSON.stringify(url)} is not an http(s) URL`);
  return url.replace(/\/+$/, '').replace(/\/log$/, '');
}

/**
 * The log key as every verifier picks it (CONTRACT §8): given, else pinned, else (first use only)
 * the one the server publishes. A published key that is not the pinned one is a different log. A
 * static mirror publishes no keys document: its checkpoint names the origin whose pin is used.
 */
export async function logKeyFor(
  server: string,
  given: string | undefined,
  io: Io,
  note: string,
): Promise<LogKey> {
  const { json } = await fetchJson(`${server}${KEYS_PATH}`, 'keys document', [404]);
  const published = isRecord(json) && isRecord(json.log) ? json.log : undefined;
  const publishedKey = typeof published?.key === 'string' ? published.key : undefined;
  let origin = typeof published?.origin === 'string' ? published.origin : note.split('\n')[0];
  if (given) {
    try {
      origin = parseVerifierKey(given).name;
    } catch (error) {
      throw new UsageError(`--log-key is not a log key: ${(error as Error).message}`);
    }
  }
  const pin = origin ? readPin(io.env, origin) : undefined;
  if (given && pin && pin.log_key !== given) {
    return { problem: `--log-key differs from the key pinned for ${origin}; remove the pin to change it` };
  }
  if (!given && pin && published && publishedKey !== pin.log_key) {
    return {
      problem: `the server's log key is not the one pinned for ${origin}: this is not the log seen before`,
    };
  }
  const key = given ?? pin?.log_key ?? publishedKey;
  if (!key)
    throw new CannotCheck(
      `${server}${KEYS_PATH} names no log key, none is pinned for ${JSON.stringify(origin)}; pass --log-key`,
    );
  try {
    origin = parseVerifierKey(key).name;
  } catch (error) {
    return { problem: `the log key ${JSON.stringify(key)}: ${(error as Error).message}` };
  }
  const source = given
    ? 'the log key given with --log-key'
    : pin
      ? 'the pinned log key'
      : 'the log key (pinned now, on first use)';
  return { key, origin, source };
}
