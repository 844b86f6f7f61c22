// The transparency-log checks of `tyche verify` and tyche-verify.mjs (CONTRACT §8): log-gather.ts
// with Node's fetch and the pin files under $XDG_STATE_HOME/tyche (log/log-pin.ts).

import { createHash } from 'node:crypto';
import { KEYS_PATH } from '../../proof/keys-path.ts';
import { checkAgainstLog, type LogSource } from '../../proof/log-gather.ts';
import type { Check } from '../../proof/report.ts';
import { readPin, writePin } from '../log/log-pin.ts';
import { CannotCheck, fetchJson } from './verify-inputs.ts';

export { SEAL_OPERATOR_ONLY, SEAL_WITNESSED } from '../../proof/log-evidence.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

export interface LogCheckInput {
  server: string;
  /** The published document's annotations (log_index, seal_log_index, seal_witness). */
  annotations: Record<string, unknown>;
  /** The signed certificate and for v2 its seal, or a seal alone before its draw. */
  certificate?: Record<string, unknown>;
  seal?: Record<string, unknown>;
  logKey?: string;
  witnessKeys: string[];
  env: Record<string, string | undefined>;
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

/** Every log check, in order; the pin is kept as log-gather.ts says. */
export async function logChecks(input: LogCheckInput): Promise<Check[]> {
  const source = serverSource(input.server);
  return checkAgainstLog({
    source,
    pins: { read: (origin) => readPin(input.env, origin), write: (pin) => writePin(input.env, pin) },
    keysDocument: await source.json(KEYS_PATH, 'keys document'),
    annotations: input.annotations,
    certificate: input.certificate,
    seal: input.seal,
    logKey: input.logKey,
    givenAs: '--log-key',
    witnessKeys: input.witnessKeys,
    sha256,
  });
}

/** The witness keys the reader trusts: --witness, else the vkeys of TYCHE_WITNESSES (`<url> <vkey>,…`). */
export function witnessKeysOf(given: unknown, env: Record<string, string | undefined>): string[] {
  if (Array.isArray(given) && given.length) return given.map(String);
  return (env.TYCHE_WITNESSES ?? '')
    .split(',')
    .map((pair) => pair.trim().split(/\s+/)[1])
    .filter((vkey): vkey is string => Boolean(vkey));
}
