// The log checks of the /verify page's button (CONTRACT §8), run in the visitor's browser: the log
// key remembered in this browser's localStorage per origin (the server's key only on the first
// visit), the newest checkpoint seen for the consistency check, and witnesses only under keys the
// visitor typed into the page — never a list the server offers. Browser only (bundled).

import { sha256 } from '@noble/hashes/sha2.js';
import { splitLogAnnotations } from '../proof/log-entry.ts';
import { checkAgainstLog, type LogPin, type LogSource, type PinStore } from '../proof/log-gather.ts';
import { isRecord } from '../proof/report.ts';
import { note, type ShownCheck, shownCheck } from './check-list.ts';

const PIN_PREFIX = 'tyche-log-pin:';
export const WITNESS_KEYS_ITEM = 'tyche-witness-keys';

/** localStorage, or nothing when the browser refuses it (private windows, disabled storage). */
function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

const browserPins: PinStore = {
  read(origin) {
    try {
      const pin = JSON.parse(storage()?.getItem(PIN_PREFIX + origin) ?? 'null') as LogPin | null;
      return pin && pin.origin === origin && typeof pin.log_key === 'string' ? pin : undefined;
    } catch {
      return undefined;
    }
  },
  write(pin) {
    storage()?.setItem(PIN_PREFIX + pin.origin, JSON.stringify(pin));
  },
};

async function get(path: string, what: string): Promise<Response> {
  const response = await fetch(path, { credentials: 'omit', cache: 'no-store' });
  if (!response.ok) throw new Error(`the ${what} at ${path} answered ${response.status}`);
  return response;
}

const pageSource: LogSource = {
  json: async (path, what) => (await get(path, what)).json(),
  text: async (path, what) => (await get(path, what)).text(),
};

/** The witness keys the visitor gave, one per line. */
export function typedWitnessKeys(): string[] {
  return (storage()?.getItem(WITNESS_KEYS_ITEM) ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

export function rememberWitnessKeys(text: string): void {
  storage()?.setItem(WITNESS_KEYS_ITEM, text);
}

interface Logged {
  annotations: Record<string, unknown>;
  certificate?: Record<string, unknown>;
  seal?: Record<string, unknown>;
}

async function run(logged: Logged, keys: unknown): Promise<ShownCheck[]> {
  try {
    const checks = await checkAgainstLog({
      source: pageSource,
      pins: browserPins,
      keysDocument: keys,
      ...logged,
      witnessKeys: typedWitnessKeys(),
      sha256: (data) => sha256(data),
    });
    return checks.map(shownCheck);
  } catch (error) {
    return [
      { label: 'Transparency log', state: 'bad', detail: `could not be read: ${(error as Error).message}` },
    ];
  }
}

/** The log's checks of the certificate (and its seal) as page lines; no log index is a note, not a pass. */
export async function pageLogChecks(document: unknown, keys: unknown): Promise<ShownCheck[]> {
  const { signed, annotations } = splitLogAnnotations(document);
  if (!isRecord(signed) || !('log_index' in annotations)) {
    return [note('Transparency log', 'not checked: this certificate names no log entry')];
  }
  return run(
    { annotations, certificate: signed, seal: isRecord(signed.seal) ? signed.seal : undefined },
    keys,
  );
}

/** The receipt page's: the seal at the giveaway's log index, and once drawn the certificate as above. */
export async function pageSealLogChecks(
  giveaway: { log_index?: number | null },
  seal: object,
  certificate: unknown,
  keys: unknown,
): Promise<ShownCheck[]> {
  if (certificate !== undefined) return pageLogChecks(certificate, keys);
  if (typeof giveaway.log_index !== 'number') {
    return [note('Transparency log', 'not checked: this giveaway names no log entry for its seal')];
  }
  return run(
    { annotations: { seal_log_index: giveaway.log_index }, seal: seal as Record<string, unknown> },
    keys,
  );
}
