// A giveaway's terms in its seal (CONTRACT §14 "Rules in the commitment"): the seal's `giveaway`
// object carries `terms_sha256`, the SHA-256 hex of the terms' UTF-8 bytes, or null when the
// giveaway published none, so the rules cannot change after entries close. Seals signed before
// terms existed have no such member at all; they stay valid, and "absent" is not "null": an
// absent member says nothing about terms, a null one says there were none. Pure, so the server,
// `tyche verify`, tyche-verify.mjs and the pages read the commitment the same way.

import type { Sha256 } from './digest.ts';
import { toHex } from './hex.ts';
import { HEX32, isRecord } from './report.ts';

/** Terms are at most this many characters (Unicode code points), like every other limit on people's text. */
export const TERMS_MAX = 20_000;

/** What a seal says about terms. */
export type TermsCommitment =
  | { kind: 'absent' }
  | { kind: 'none' }
  | { kind: 'sha256'; sha256: string }
  | { kind: 'malformed'; value: unknown };

const encoder = new TextEncoder();

/** The SHA-256 hex of the terms' UTF-8 bytes, as the seal commits to it. */
export function termsSha256(terms: string, sha256: Sha256): string {
  return toHex(sha256(encoder.encode(terms)));
}

/** What the seal's `giveaway` object commits to, read without trusting its shape. */
export function termsCommitmentOf(seal: unknown): TermsCommitment {
  const giveaway = isRecord(seal) && isRecord(seal.giveaway) ? seal.giveaway : {};
  if (!('terms_sha256' in giveaway)) return { kind: 'absent' };
  const value = giveaway.terms_sha256;
  if (value === null) return { kind: 'none' };
  return typeof value === 'string' && HEX32.test(value)
    ? { kind: 'sha256', sha256: value }
    : { kind: 'malformed', value };
}

/** Why the seal's `giveaway.terms_sha256` is neither absent, null nor 64 lower-case hex, or null. */
export function termsFormatProblem(giveaway: Record<string, unknown>, at = ''): string | null {
  if (!('terms_sha256' in giveaway)) return null;
  const value = giveaway.terms_sha256;
  if (value === null || (typeof value === 'string' && HEX32.test(value))) return null;
  return `${at}giveaway.terms_sha256 is neither null nor 64 lower-case hex`;
}

/** One line for people: what the seal commits to about terms. */
export function termsCommitmentText(commitment: TermsCommitment): string {
  switch (commitment.kind) {
    case 'absent':
      return 'the seal predates commitments to terms (it has no terms_sha256)';
    case 'none':
      return 'the seal commits to no terms (terms_sha256 is null)';
    case 'sha256':
      return `the seal commits to terms with SHA-256 ${commitment.sha256}`;
    default:
      return `the seal's terms_sha256 is malformed: ${JSON.stringify(commitment.value)}`;
  }
}

/** The UTF-8 byte-order mark an editor may have put in front of a saved file. */
const BOM = [0xef, 0xbb, 0xbf];

/** Near misses worth naming when a file does not match: how people usually save text. */
function nearMiss(bytes: Uint8Array, expected: string, sha256: Sha256): string | null {
  const variants: [string, Uint8Array][] = [];
  if (bytes.length >= 3 && BOM.every((b, i) => bytes[i] === b)) {
    variants.push(['without its byte-order mark', bytes.subarray(3)]);
  }
  if (bytes.at(-1) === 0x0a) {
    const cut = bytes.at(-2) === 0x0d ? 2 : 1;
    variants.push(['without its final line break', bytes.subarray(0, bytes.length - cut)]);
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (text.includes('\r\n'))
    variants.push(['with LF line breaks instead of CRLF', encoder.encode(text.replaceAll('\r\n', '\n'))]);
  for (const [how, variant] of variants) {
    if (toHex(sha256(variant)) === expected) return how;
  }
  return null;
}

/**
 * Why the file of terms (`bytes`, exactly as read) is not what the seal committed to, or null
 * when its SHA-256 is the seal's `terms_sha256`. Every way it can fail is named: the seal predates
 * terms, commits to none, is malformed, or names another hash (and, when a saved copy differs only
 * by a byte-order mark, a final line break or CRLF line breaks, the message says so).
 */
export function termsFileProblem(seal: unknown, bytes: Uint8Array, sha256: Sha256): string | null {
  const commitment = termsCommitmentOf(seal);
  const digest = toHex(sha256(bytes));
  switch (commitment.kind) {
    case 'absent':
      return `the seal has no terms_sha256: it was made before seals committed to terms, so no file can be checked against it`;
    case 'none':
      return `the seal's terms_sha256 is null: this giveaway published no terms, so the file (SHA-256 ${digest}) is not its terms`;
    case 'malformed':
      return termsCommitmentText(commitment);
  }
  if (digest === commitment.sha256) return null;
  const near = nearMiss(bytes, commitment.sha256, sha256);
  const hint = near
    ? ` (the file matches ${near}: save the terms exactly as published, e.g. the "terms" member of /g/{public_id}.json)`
    : '';
  return `the file's SHA-256 is ${digest}, the seal's terms_sha256 is ${commitment.sha256}: these are not the terms the seal committed to${hint}`;
}
