// CONTRACT §12: a signed random result. The signed bytes are the RFC 8785 canonical JSON of the
// response's members other than `signed`, with `serial` and `issued_at` added beside them — and,
// on a result counted per account, `account_serial` and `account` too; `signed.hash` is their
// SHA-256 hex and `signed.signature` an Ed25519 signature of the same bytes under a key of
// /.well-known/tyche-keys.json. The server that signs and every verifier build the bytes here, so
// they cannot disagree. Pure: tyche-verify.mjs bundles it.

import { canonicalJsonBytes } from './canonical-json.ts';
import type { Sha256 } from './digest.ts';
import { toHex } from './hex.ts';
import {
  type Check,
  guarded,
  HEX32,
  isCount,
  isRecord,
  makeCheck,
  type Report,
  report,
  warnCheck,
} from './report.ts';
import { objectSignatureProblem } from './signed-object.ts';

/** What a signed result's report is labelled with. */
export const SIGNED_RESULT = 'signed-result';

/** The warning on a result signed before results were counted per account and logged. */
const UNCOUNTED =
  'signed before results were counted per account: it carries no account_serial and is not in the log, so nobody can tell how many results its account asked for';

export interface ResultSignature {
  alg: 'Ed25519';
  kid: string;
  /** base64url of the 64-byte signature. */
  value: string;
}

/**
 * The members of `signed` that the signed bytes take in. A result signed before results were
 * counted per account has neither `account_serial` nor `account`; every later one has both.
 */
export interface SignedFields {
  serial: number;
  issued_at: string;
  /** 1, 2, 3 … per account, without gaps: the number of signed results the account has asked for. */
  account_serial?: number;
  /** The account's stable public pseudonym, the `owner` its seals name. */
  account?: string;
}

/** The block `?signed=true` adds to a random endpoint's response. */
export interface SignedBlock extends SignedFields {
  hash: string;
  signature: ResultSignature;
  /** Where the result's entry sits in the transparency log; beside the signed bytes, not in them. */
  log_index?: number;
}

const ISSUED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** `o_` and 16 base62 characters, as every account pseudonym is written (accounts/account-pseudonym.ts). */
export const ACCOUNT_PSEUDONYM = /^o_[0-9A-Za-z]{16}$/;

/** A result counted per account: one the log holds, so its account's other results can be listed. */
export const isCounted = (fields: { account_serial?: unknown }) => fields.account_serial !== undefined;

/**
 * The object whose canonical JSON is hashed and signed: the response without `signed`, plus the
 * serial and time and, when counted, the account's serial and pseudonym.
 */
export function signedResultBody(
  response: Record<string, unknown>,
  fields: SignedFields,
): Record<string, unknown> {
  const { signed: _signed, ...rest } = response;
  const body: Record<string, unknown> = { ...rest, serial: fields.serial, issued_at: fields.issued_at };
  if (isCounted(fields))
    Object.assign(body, { account_serial: fields.account_serial, account: fields.account });
  return body;
}

/** The exact bytes that are hashed and signed. */
export function signedResultBytes(response: Record<string, unknown>, fields: SignedFields) {
  return canonicalJsonBytes(signedResultBody(response, fields));
}

/**
 * The signed result in what a user may hold: the response itself, or the document of
 * `GET /api/v1/operations/{id}`, which carries it as `result`.
 */
export function signedResultOf(document: unknown): Record<string, unknown> | undefined {
  if (isRecord(document) && !isRecord(document.signed) && isRecord(document.result)) return document.result;
  return isRecord(document) ? document : undefined;
}

function blockProblem(signed: unknown): string | null {
  if (!isRecord(signed))
    return 'there is no "signed" block: the result was not signed (ask with signed=true)';
  if (!Number.isSafeInteger(signed.serial) || (signed.serial as number) < 1)
    return 'signed.serial is not a positive integer';
  if (typeof signed.issued_at !== 'string' || !ISSUED_AT.test(signed.issued_at))
    return 'signed.issued_at is not an RFC 3339 UTC time with milliseconds';
  if (typeof signed.hash !== 'string' || !HEX32.test(signed.hash)) return 'signed.hash is not 64 hex digits';
  const counted = signed.account_serial !== undefined;
  if (counted !== (signed.account !== undefined))
    return 'signed.account_serial and signed.account come together, or not at all';
  if (counted && !isCount(signed.account_serial)) return 'signed.account_serial is not a positive integer';
  if (counted && (typeof signed.account !== 'string' || !ACCOUNT_PSEUDONYM.test(signed.account)))
    return 'signed.account is not an account pseudonym (o_ and 16 letters or digits)';
  if (
    signed.log_index !== undefined &&
    !(Number.isSafeInteger(signed.log_index) && (signed.log_index as number) >= 0)
  )
    return 'signed.log_index is not a log index';
  return null;
}

/** How the block names the result: its serial, and its place among its account's results. */
function describeBlock(block: SignedFields): string {
  const account = isCounted(block) ? `, result ${block.account_serial} of account ${block.account}` : '';
  return `serial ${block.serial}${account}, issued at ${block.issued_at}`;
}

/**
 * The key's published life against the result's time: a key signs from its `created_at`, and
 * nothing it signs is dated after its `retired_at`.
 */
function keyWindowProblem(kid: unknown, issuedAt: string, keys: unknown): string | null {
  const list = isRecord(keys) && Array.isArray(keys.keys) ? keys.keys : [];
  const jwk = list.find((k): k is Record<string, unknown> => isRecord(k) && k.kid === kid);
  if (!jwk) return `key ${JSON.stringify(kid)} is not among the published keys`;
  const at = Date.parse(issuedAt);
  if (typeof jwk.created_at === 'string' && at < Date.parse(jwk.created_at))
    return `issued at ${issuedAt}, before key ${String(kid)} was created (${jwk.created_at})`;
  if (typeof jwk.retired_at === 'string' && at > Date.parse(jwk.retired_at))
    return `issued at ${issuedAt}, after key ${String(kid)} was retired (${jwk.retired_at})`;
  return null;
}

/**
 * Checks a signed result against the published keys: its block, the hash of its canonical body,
 * the Ed25519 signature and the key's life. The report's trust is the operator's: a signature
 * proves who issued these values, under which serial and when — not how they were drawn.
 */
export function verifySignedResult(document: unknown, keys: unknown, sha256: Sha256): Report {
  const result = signedResultOf(document);
  const signed = result?.signed;
  const shape = result ? blockProblem(signed) : 'not a JSON object';
  const block = signed as SignedBlock;
  const checks: Check[] = [
    makeCheck('result-signed', 'Signed block', shape, shape ? '' : describeBlock(block)),
  ];
  if (shape || !result) return report(SIGNED_RESULT, 'operator', checks);

  const body = signedResultBody(result, block);
  checks.push(
    guarded('result-hash', 'Result hash', () => {
      const digest = toHex(sha256(canonicalJsonBytes(body)));
      return makeCheck(
        'result-hash',
        'Result hash',
        digest === block.hash ? null : `SHA-256 of the canonical JSON is ${digest}, not ${block.hash}`,
        `${block.hash} is the SHA-256 of the result's canonical JSON with its ${isCounted(block) ? 'serials, account' : 'serial'} and time`,
      );
    }),
  );
  const kid = isRecord(block.signature) ? block.signature.kid : undefined;
  checks.push(
    makeCheck(
      'result-signature',
      'Signature',
      objectSignatureProblem({ ...body, signature: block.signature }, keys),
      `Ed25519 by published key ${String(kid)}`,
    ),
    makeCheck(
      'result-key',
      'Signing key in use',
      keyWindowProblem(kid, block.issued_at, keys),
      `key ${String(kid)} was in use at ${block.issued_at}`,
    ),
  );
  if (!isCounted(block)) checks.push(warnCheck('result-counted', 'Counted per account', UNCOUNTED));
  return report(SIGNED_RESULT, 'operator', checks);
}
