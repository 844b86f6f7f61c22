import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_MARKER = 'tk_';
/** 32 random bytes: 256 bits from the CSPRNG, 43 characters of base64url. */
const KEY_BYTES = 32;
export const KEY_PREFIX_LENGTH = 12;
const KEY_PATTERN = /^tk_[A-Za-z0-9_-]{43}$/;

export interface NewApiKey {
  /** The secret; shown once to its owner and never stored. */
  key: string;
  /** `tk_` and nine random characters: enough to name one key in lists and `keys revoke`. */
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const key = KEY_MARKER + randomBytes(KEY_BYTES).toString('base64url');
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/**
 * A key carries 256 bits of entropy, so a plain SHA-256 cannot be brute-forced; a slow
 * password hash would only slow every request down.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function keyMatchesHash(key: string, storedHash: string): boolean {
  const actual = Buffer.from(hashApiKey(key), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
