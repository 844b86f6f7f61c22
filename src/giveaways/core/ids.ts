import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely.
const UNBIASED_BELOW = 248;

function randomText(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_BELOW) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * Giveaway ids carry no prefix: the bot's join link already wraps them as `start=g_<id>`.
 * 12 base62 characters (71 bits) cannot be enumerated.
 */
const PUBLIC_ID = /^[0-9A-Za-z]{12}$/;
export const newPublicId = () => randomText(12);
export const isPublicId = (value: string) => PUBLIC_ID.test(value);

/** Certificate ids appear alone in /verify URLs and in `tyche verify`, so they say what they are. */
const CERTIFICATE_ID = /^c_[0-9A-Za-z]{16}$/;
export const newCertificateId = () => `c_${randomText(16)}`;
export const isCertificateId = (value: string) => CERTIFICATE_ID.test(value);

export const newSealId = () => `s_${randomText(16)}`;

/** An amendment (CONTRACT §14) is named in the log and in channel posts by this id. */
export const newAmendmentId = () => `a_${randomText(16)}`;

/** A seal's `owner`: the account's pseudonym (accounts/account-pseudonym.ts), for an account made before it had one. */
export { newAccountPseudonym as newOwnerPseudonym } from '../../accounts/account-pseudonym.ts';
