// Telegram's sign-in for Mini Apps (core.telegram.org/bots/webapps, "Validating data received via
// the Mini App"): the page hands over the raw initData string it was launched with; its `hash` is
// HMAC-SHA256 over the sorted `key=value` lines of every other field, keyed with
// HMAC-SHA256("WebAppData", bot token). The library checks the hash; the age is checked here on the
// injected clock (the library reads the wall clock), and the fields are parsed by the library.

import { timingSafeEqual } from 'node:crypto';
import { isExpiredError, parse, signData, validate } from '@telegram-apps/init-data-node';
import { AppError } from '../../shared/errors.ts';

/** CONTRACT §15: initData at most one hour old. */
export const INIT_DATA_MAX_AGE_S = 3600;
/** A device clock a little ahead of the server's must not lock its user out. */
const FUTURE_SKEW_S = 60;
/** Longer than any initData Telegram sends; refused before any HMAC is computed. */
const MAX_INIT_DATA_LENGTH = 8192;

/** The Telegram user initData vouches for. */
export interface TelegramUser {
  telegram_id: number;
  first_name: string;
  username: string | null;
  language_code: string | null;
}

const refused = (detail: string) => new AppError('unauthorized', `Telegram initData refused: ${detail}`);

/**
 * The user of a genuine, fresh initData string; anything else is a 401 that says why (a missing
 * or wrong hash, a stale or malformed auth_date, a field that does not parse, no user).
 */
export function checkInitData(raw: unknown, botToken: string, now: Date): TelegramUser {
  if (typeof raw !== 'string' || raw.length === 0) throw refused('init_data is missing');
  if (raw.length > MAX_INIT_DATA_LENGTH) throw refused('init_data is too long');
  refuseForgedHash(raw, botToken);
  try {
    // The age is checked below on the service's clock, not the library's wall clock.
    validate(raw, botToken, { expiresIn: 0 });
  } catch (error) {
    throw refused(isExpiredError(error) ? 'expired' : reasonOf(error));
  }
  const data = parsed(raw);
  const authS = Math.floor(data.auth_date.getTime() / 1000);
  const nowS = Math.floor(now.getTime() / 1000);
  if (!Number.isFinite(authS) || authS > nowS + FUTURE_SKEW_S) throw refused('auth_date is in the future');
  if (nowS - authS > INIT_DATA_MAX_AGE_S) throw refused('expired: auth_date is more than one hour old');
  const user = data.user;
  if (!user || !Number.isSafeInteger(user.id) || user.id <= 0) throw refused('no user');
  return {
    telegram_id: user.id,
    first_name: user.first_name,
    username: user.username ?? null,
    language_code: user.language_code ?? null,
  };
}

/**
 * The library compares the hash with `!==`, which answers sooner the earlier a forged hash goes
 * wrong; the same HMAC is compared here in constant time first, so the library's comparison only
 * ever sees the genuine hash. A missing hash is left to the library, which names it.
 */
function refuseForgedHash(raw: string, botToken: string): void {
  const params = new URLSearchParams(raw);
  const hash = params.get('hash');
  if (!hash) return;
  params.delete('hash');
  const lines = [...params.entries()].map(([key, value]) => `${key}=${value}`).sort();
  const expected = Buffer.from(signData(lines.join('\n'), botToken), 'hex');
  const given = Buffer.from(hash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw refused('hash does not match: altered, or signed for another bot');
  }
}

/** Every field by the library's schema (types of user, chat, dates…), snake_case as sent. */
function parsed(raw: string) {
  try {
    return parse(raw, false);
  } catch (error) {
    throw refused(`a field does not parse: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The library's error kinds, in words a person reading the 401 can act on. */
function reasonOf(error: unknown): string {
  const name = (error as { name?: unknown })?.name;
  if (name === 'SignatureMissingError') return 'hash is missing';
  if (name === 'SignatureInvalidError') return 'hash does not match: altered, or signed for another bot';
  if (name === 'AuthDateInvalidError') return 'auth_date is missing or not a number';
  return 'not valid';
}
