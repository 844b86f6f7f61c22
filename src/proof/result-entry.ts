// A signed result's entry in the transparency log (CONTRACT §12 "Countable", §8). The log says of
// each result whose it is (the account's pseudonym and its serial there), the deployment's serial,
// the time, what was asked (the endpoint and its sizes) and the result's hash — never its values or
// items, which may name people and would not fit an entry — signed by the key that signed the
// result. It is built from the signed result alone, so whoever holds a result knows exactly which
// entry to expect. Pure: the server, `tyche verify` and `tyche log verify` run it.

import { canonicalJson } from './canonical-json.ts';
import { isRecord } from './report.ts';
import { isCounted, type SignedBlock } from './signed-result.ts';

export const RESULT_ENTRY_TYPE = 'tyche-result';

/** What a result answered, without its values: the endpoint, and the sizes the answer states. */
function requestOf(result: Record<string, unknown>): Record<string, unknown> | null {
  if (Array.isArray(result.numbers) && isRecord(result.range)) {
    return { endpoint: 'int', min: result.range.min, max: result.range.max, count: result.count };
  }
  if (Array.isArray(result.chosen))
    return { endpoint: 'choice', count: result.count, from_total: result.from_total };
  if (Array.isArray(result.shuffled)) return { endpoint: 'shuffle', count: result.count };
  if (typeof result.bytes === 'string')
    return { endpoint: 'bytes', length: result.length, format: result.format };
  return null;
}

/** The unsigned body of a counted result's entry; the result's own key adds `hash` and `signature`. */
export function resultEntryBody(
  result: Record<string, unknown> & { signed: SignedBlock },
): Record<string, unknown> {
  const { signed } = result;
  return {
    type: RESULT_ENTRY_TYPE,
    serial: signed.serial,
    issued_at: signed.issued_at,
    account: signed.account,
    account_serial: signed.account_serial,
    request: requestOf(result),
    result_hash: signed.hash,
  };
}

const MEMBERS = ['type', 'serial', 'issued_at', 'account', 'account_serial', 'request', 'result_hash'];
const text = (value: unknown) => canonicalJson(value ?? null);

/**
 * Why `entry`, as the log holds it, is not the entry of `result`, or null: each member must be what
 * the result implies, and the entry signed by the key that signed the result. (Its hash, signature
 * and that key's place in the log are the log checks' to judge, as for every signed entry.)
 */
export function resultEntryProblem(
  entry: Record<string, unknown>,
  result: Record<string, unknown> & { signed: SignedBlock },
): string | null {
  if (!isCounted(result.signed)) return 'the result is not counted per account, so it has no entry';
  const expected = resultEntryBody(result);
  for (const name of MEMBERS) {
    if (text(entry[name]) !== text(expected[name])) {
      const got = entry[name] === undefined ? 'missing' : text(entry[name]);
      return `its ${name} is ${got}, where the result implies ${text(expected[name])}`;
    }
  }
  const { hash: _hash, signature: _signature, ...body } = entry;
  if (text(body) !== text(expected)) return 'it holds members that a result entry does not have';
  const kidOf = (signature: unknown) => (isRecord(signature) ? signature.kid : undefined);
  const [kid, resultKid] = [kidOf(entry.signature), kidOf(result.signed.signature)];
  if (kid === undefined || kid !== resultKid) {
    return `it is signed by key ${JSON.stringify(kid)}, the result by ${JSON.stringify(resultKid)}`;
  }
  return null;
}
