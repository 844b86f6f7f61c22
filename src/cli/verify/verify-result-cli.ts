// `tyche verify --result FILE`: one signed random result (CONTRACT §12), as the response was sent
// or as GET /api/v1/operations/{id} returned it. Its hash, its Ed25519 signature under the
// server's published keys and the key's life at the result's time; for a result counted per
// account, its entry in the server's transparency log.

import { KEYS_PATH } from '../../proof/keys-path.ts';
import { isRecord, shortList } from '../../proof/report.ts';
import {
  isCounted,
  type SignedBlock,
  signedResultOf,
  verifySignedResult,
} from '../../proof/signed-result.ts';
import { resultLogChecks, resultLogServer } from './result-log.ts';
import type { NotChecked, VerifyResult } from './verify-cli-output.ts';
import { keysSource, trimSlash, type VerifyContext } from './verify-context.ts';
import { CannotCheck, loadJson, sourceOf, whereOf } from './verify-inputs.ts';

/** The values a result carries, under the name each endpoint gives them. */
function valuesLine(result: Record<string, unknown>): string | undefined {
  for (const field of ['numbers', 'chosen', 'shuffled'] as const) {
    const values = result[field];
    if (Array.isArray(values)) {
      return `${field}: ${shortList(values.map((v) => JSON.stringify(v) ?? 'null'))}`;
    }
  }
  if (typeof result.bytes === 'string') return `bytes (${String(result.format)}): ${result.bytes}`;
  return undefined;
}

export async function verifyResultFrom(arg: string, context: VerifyContext): Promise<VerifyResult> {
  const source = sourceOf(arg);
  const keysFrom = keysSource(context, () => trimSlash(context.io.baseUrl()));
  const [document, keys] = await Promise.all([
    loadJson(source, 'signed result'),
    loadJson(keysFrom, 'signing keys'),
  ]);
  const result = signedResultOf(document);
  if (!result) throw new CannotCheck(`${whereOf(source)} is not a signed result: not a JSON object`);
  const report = verifySignedResult(result, keys, context.sha256);
  const signed = isRecord(result.signed) ? result.signed : {};
  const notChecked: NotChecked[] = [];
  const summary: string[] = [];
  // A block that does not even read as one has nothing to look up in the log.
  if (report.checks[0].ok && isCounted(signed)) {
    const counted = result as Record<string, unknown> & { signed: SignedBlock };
    const server = resultLogServer(context);
    if (server) {
      const checks = await resultLogChecks(context, server, counted);
      report.checks.push(...checks);
      report.valid = report.valid && checks.every((c) => c.ok);
      summary.push(
        `Every signed result of account ${counted.signed.account}: tyche log verify ${server}/log --account ${counted.signed.account}`,
      );
    } else {
      notChecked.push({
        id: 'log',
        label: 'Transparency log',
        detail: `not checked: the keys do not come from a server's ${KEYS_PATH}; give --keys as that URL to check the result's log entry`,
      });
    }
  }
  const heading = [
    `Signed result ${whereOf(source)}: serial ${String(signed.serial)}, issued at ${String(signed.issued_at)}`,
    `Keys: ${whereOf(keysFrom)}`,
  ];
  const values = valuesLine(result);
  return {
    heading,
    report,
    notChecked,
    summary: [
      ...(values ? [values] : []),
      `Operation ids: ${String(result.request_id)}${Array.isArray(result.qrng_request_ids) ? ` (${result.qrng_request_ids.length} in all)` : ''}; source ${String(result.qrng_source)}`,
      ...summary,
    ],
    extra: {
      serial: signed.serial ?? null,
      account_serial: signed.account_serial ?? null,
      account: signed.account ?? null,
      issued_at: signed.issued_at ?? null,
      log_index: signed.log_index ?? null,
      request_id: result.request_id ?? null,
    },
  };
}
