// `tyche verify --result FILE`: one signed random result (CONTRACT §12), as the response was sent
// or as GET /api/v1/operations/{id} returned it. Its hash, its Ed25519 signature under the
// server's published keys and the key's life at the result's time.

import { isRecord, shortList } from '../../proof/report.ts';
import { signedResultOf, verifySignedResult } from '../../proof/signed-result.ts';
import type { VerifyResult } from './verify-cli-output.ts';
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
  const heading = [
    `Signed result ${whereOf(source)}: serial ${String(signed.serial)}, issued at ${String(signed.issued_at)}`,
    `Keys: ${whereOf(keysFrom)}`,
  ];
  const values = valuesLine(result);
  return {
    heading,
    report,
    notChecked: [],
    summary: [
      ...(values ? [values] : []),
      `Operation ids: ${String(result.request_id)}${Array.isArray(result.qrng_request_ids) ? ` (${result.qrng_request_ids.length} in all)` : ''}; source ${String(result.qrng_source)}`,
    ],
    extra: {
      serial: signed.serial ?? null,
      issued_at: signed.issued_at ?? null,
      request_id: result.request_id ?? null,
    },
  };
}
