// What `tyche log verify` reads from the log's result entries (CONTRACT §12 "Countable"): every
// signed result of each account, by its pseudonym, in log order. An account's results are
// numbered 1, 2, 3 … in the transaction that signs them, so a number missing from the log is a
// result the account asked for and the log does not show, and a number logged twice is a result
// counted twice: either is a finding. Across accounts, the deployment's serial only grows.

import { isCount, isRecord } from '../../proof/report.ts';

/** One result entry, as the log holds it (proof/result-entry.ts). */
export interface LoggedResult {
  index: number;
  serial: number;
  account_serial: number;
  issued_at: string;
  request: Record<string, unknown>;
  result_hash: string;
}

/** "3", "3–5", "3, 7–9" */
function ranges(numbers: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length; i++) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
    parts.push(i === j ? `${numbers[i]}` : `${numbers[i]}–${numbers[j]}`);
    i = j;
  }
  return parts.join(', ');
}

/** What was asked, in a few words: "choice: 6 of 49". */
function describeRequest(request: Record<string, unknown>): string {
  const { endpoint } = request;
  if (endpoint === 'int') return `int: ${request.count} in [${request.min}, ${request.max}]`;
  if (endpoint === 'choice') return `choice: ${request.count} of ${request.from_total}`;
  if (endpoint === 'shuffle') return `shuffle: ${request.count} items`;
  if (endpoint === 'bytes') return `bytes: ${request.length} (${request.format})`;
  return JSON.stringify(request);
}

export function createResultTally() {
  const byAccount = new Map<string, LoggedResult[]>();
  const findings: string[] = [];
  let lastSerial = 0;

  function gapsAndRepeats(account: string, results: LoggedResult[]): string[] {
    const found: string[] = [];
    const entriesOf = new Map<number, number[]>();
    for (const r of results) {
      const indices = entriesOf.get(r.account_serial);
      if (indices) indices.push(r.index);
      else entriesOf.set(r.account_serial, [r.index]);
    }
    let highest = 0;
    for (const n of entriesOf.keys()) highest = Math.max(highest, n);
    const missing: number[] = [];
    for (let n = 1; n <= highest; n++) if (!entriesOf.has(n)) missing.push(n);
    if (missing.length > 0) {
      const several = missing.length > 1;
      found.push(
        `account ${account}: signed result${several ? 's' : ''} ${ranges(missing)} of ${highest} ${several ? 'are' : 'is'} not in the log`,
      );
    }
    for (const [n, indices] of entriesOf) {
      if (indices.length > 1) {
        found.push(
          `account ${account}: result ${n} is logged ${indices.length} times (entries ${indices.join(', ')})`,
        );
      }
    }
    return found;
  }

  return {
    /** A result entry whose signature held, in log order; why it cannot be counted, or null. */
    add(index: number, obj: Record<string, unknown>): string | null {
      const { account, account_serial: accountSerial, serial } = obj;
      if (typeof account !== 'string' || !isCount(accountSerial) || !isCount(serial)) {
        return 'it names no account, account serial and serial';
      }
      if (serial <= lastSerial) {
        findings.push(
          `result entry ${index} has serial ${serial}, not above the previous result's ${lastSerial}`,
        );
      }
      lastSerial = Math.max(lastSerial, serial);
      const logged: LoggedResult = {
        index,
        serial,
        account_serial: accountSerial,
        issued_at: String(obj.issued_at),
        request: isRecord(obj.request) ? obj.request : {},
        result_hash: String(obj.result_hash),
      };
      const results = byAccount.get(account);
      if (results) results.push(logged);
      else byAccount.set(account, [logged]);
      return null;
    },

    /** One account's results, in log order (none for a pseudonym the log never names). */
    of: (account: string): LoggedResult[] => byAccount.get(account) ?? [],

    /** Serials out of order, then every account's gaps and repeats. */
    findings(): string[] {
      const out = [...findings];
      for (const [account, results] of byAccount) out.push(...gapsAndRepeats(account, results));
      return out;
    },
  };
}

/** The lines `--account` prints: the account's results, one a line, oldest first. */
export function resultLines(account: string, results: readonly LoggedResult[]): string[] {
  const count = `${results.length} signed result${results.length === 1 ? '' : 's'}`;
  return [
    `Results of account ${account}: ${count} in the log`,
    ...results.map(
      (r) =>
        `    result ${r.account_serial}: serial ${r.serial}, issued at ${r.issued_at}, ${describeRequest(r.request)}, hash ${r.result_hash}, entry ${r.index}`,
    ),
  ];
}
