// The log checks of `tyche verify --result` (CONTRACT §12, §8). The entry at the result's
// `log_index` must be exactly the one the result implies (proof/result-entry.ts); that entry is
// then checked as a certificate is, by the same code (log-checks.ts): a fresh checkpoint under the
// pinned log key, consistent with the one seen before, the entry's inclusion, and its key as the
// log announced it.

import { fromBase64 } from '../../proof/hex.ts';
import { KEYS_PATH } from '../../proof/keys-path.ts';
import { readLogEntry } from '../../proof/log-entry.ts';
import { type Check, isRecord, makeCheck } from '../../proof/report.ts';
import { resultEntryProblem } from '../../proof/result-entry.ts';
import type { SignedBlock } from '../../proof/signed-result.ts';
import { logChecks } from './log-checks.ts';
import { trimSlash, type VerifyContext } from './verify-context.ts';
import { fetchJson, isUrl } from './verify-inputs.ts';

const ID = 'log-entry-result';
const LABEL = 'Log entry (result)';

/**
 * The server whose log holds the result: the one whose keys URL --keys gives, else the default
 * server. A keys file means an offline check: there is no log to ask.
 */
export function resultLogServer(context: VerifyContext): string | undefined {
  const keys = context.keysOption;
  if (keys === undefined) return trimSlash(context.io.baseUrl());
  if (!isUrl(keys)) return undefined;
  const url = new URL(keys);
  const path = url.pathname.replace(/\/+$/, '');
  return path.endsWith(KEYS_PATH) ? `${url.origin}${path.slice(0, -KEYS_PATH.length)}` : undefined;
}

/** The entry the log serves at `index`, or why there is none to compare. */
async function servedEntry(server: string, index: number, serial: number) {
  const url = `${server}/log/entries?start=${index}&end=${index + 1}`;
  const { status, json } = await fetchJson(url, 'log entry', [400]);
  const served = isRecord(json) && Array.isArray(json.entries) ? json.entries[0] : undefined;
  if (status === 400 || !isRecord(served) || typeof served.leaf_data !== 'string') {
    return { problem: `the log has no entry ${index}` };
  }
  const leafData = fromBase64(served.leaf_data);
  if (!leafData) return { problem: `entry ${index}'s leaf data is not base64` };
  const read = readLogEntry(leafData, 'result', String(serial));
  return read.ok ? { entry: read.object } : { problem: `entry ${index}: ${read.problem}` };
}

/** Every log check of a counted result whose block is well formed. */
export async function resultLogChecks(
  context: VerifyContext,
  server: string,
  result: Record<string, unknown> & { signed: SignedBlock },
): Promise<Check[]> {
  const { log_index: index, serial, account_serial: accountSerial, account } = result.signed;
  if (index === undefined) {
    return [makeCheck(ID, LABEL, 'the result names no log_index, so its entry cannot be found', '')];
  }
  const served = await servedEntry(server, index, serial);
  const problem = served.entry ? resultEntryProblem(served.entry, result) : served.problem;
  const matched = makeCheck(
    ID,
    LABEL,
    problem && `entry ${index} is not this result's: ${problem}`,
    `entry ${index} counts it as result ${accountSerial} of account ${account}`,
  );
  if (problem || !served.entry) return [matched];
  const checks = await logChecks(context, {
    server,
    annotations: { log_index: index },
    result: served.entry,
  });
  return [matched, ...checks];
}
