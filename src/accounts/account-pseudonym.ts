import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 16;

/**
 * An account's public pseudonym: the `owner` its seals name (CONTRACT §7.3) and the `account` its
 * signed results name (§12). `o_` and 16 base62 characters (95 bits) drawn uniformly by the CSPRNG,
 * given once when the account is made and never changed, and derived from nothing: it ties an
 * account's public records together without saying whose account it is.
 */
export function newAccountPseudonym(): string {
  let out = 'o_';
  for (let i = 0; i < LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
