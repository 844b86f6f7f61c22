// The transparency-log checks of `tyche verify` and tyche-verify.mjs (CONTRACT §8): log-gather.ts
// with Node's fetch and the pin files under $XDG_STATE_HOME/tyche (log-pin.ts).

import { KEYS_PATH } from '../../proof/keys-path.ts';
import { checkAgainstLog, type LogCheckResult, type LogSource } from '../../proof/log-gather.ts';
import { type OutsideAttestation, sealTimeCheck } from '../../proof/outside-evidence.ts';
import type { Check, Report } from '../../proof/report.ts';
import { readPin, writePin } from './log-pin.ts';
import type { VerifyContext } from './verify-context.ts';
import { CannotCheck, fetchJson } from './verify-inputs.ts';

export interface LogCheckInput {
  server: string;
  /** The published document's annotations (log_index, seal_log_index, seal_witness). */
  annotations: Record<string, unknown>;
  /** The signed certificate and for v2 its seal, or a seal alone before its draw. */
  certificate?: Record<string, unknown>;
  seal?: Record<string, unknown>;
  /** Or a signed result's entry, as the log holds it (result-log.ts). */
  result?: Record<string, unknown>;
}

function serverSource(server: string): LogSource {
  return {
    json: async (path, what) => (await fetchJson(`${server}${path}`, what)).json,
    text: async (path, what) => {
      const url = `${server}${path}`;
      const response = await fetch(url, { signal: AbortSignal.timeout(15_000) }).catch((error: Error) => {
        throw new CannotCheck(`cannot reach ${url}: ${error.message}`);
      });
      if (!response.ok) throw new CannotCheck(`no ${what} at ${url} (${response.status})`);
      return response.text();
    },
  };
}

/**
 * Every log check, in order, under the log key and witnesses the reader gave (--log-key,
 * --witness) or trusts; the pin is kept as log-gather.ts says.
 */
export async function logChecks(context: VerifyContext, input: LogCheckInput): Promise<Check[]> {
  return (await logEvidence(context, input)).checks;
}

/** The log checks, and the witnesses' attestations of the seal's time that verified. */
export async function logEvidence(context: VerifyContext, input: LogCheckInput): Promise<LogCheckResult> {
  const { env } = context.io;
  const source = serverSource(input.server);
  return checkAgainstLog({
    source,
    pins: { read: (origin) => readPin(env, origin), write: (pin) => writePin(env, pin) },
    keysDocument: await source.json(KEYS_PATH, 'keys document'),
    annotations: input.annotations,
    certificate: input.certificate,
    seal: input.seal,
    result: input.result,
    logKey: context.values['log-key'] as string | undefined,
    givenAs: '--log-key',
    witnessKeys: witnessKeysOf(context.values.witness, env),
    sha256: context.sha256,
  });
}

/** The witness keys the reader trusts: --witness, else the vkeys of TYCHE_WITNESSES (`<url> <vkey>,…`). */
function witnessKeysOf(given: unknown, env: Record<string, string | undefined>): string[] {
  if (Array.isArray(given) && given.length) return given.map(String);
  return (env.TYCHE_WITNESSES ?? '')
    .split(',')
    .map((pair) => pair.trim().split(/\s+/)[1])
    .filter((vkey): vkey is string => Boolean(vkey));
}

/**
 * §13's verdict on the seal's time, from every outside attestation that verified (the witnesses'
 * today), added to the report: a warning without any, a failure when --require-outside asks for
 * more than there are.
 */
export function addSealTime(
  report: Report,
  seal: unknown,
  outside: readonly OutsideAttestation[],
  context: VerifyContext,
): void {
  const check: Check = sealTimeCheck(outside, seal, context.requireOutside);
  report.checks.push(check);
  report.valid = report.valid && check.ok;
}
