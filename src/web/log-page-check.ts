// The log checks of the /verify page's button (CONTRACT §8), run in the visitor's browser: the log
// key remembered in this browser's localStorage per origin (the server's key only on the first
// visit), the newest checkpoint seen for the consistency check, and witnesses only under keys the
// visitor typed into the page — never a list the server offers —, then the verdict on the seal's
// time under the outside evidence the visitor requires. Browser only (bundled).

import { sha256 } from '@noble/hashes/sha2.js';
import { splitLogAnnotations } from '../proof/log-entry.ts';
import { checkAgainstLog, type LogPin, type LogSource, type PinStore } from '../proof/log-gather.ts';
import {
  noSealCheck,
  type OutsideAttestation,
  parseRequiredOutside,
  sealTimeCheck,
} from '../proof/outside-evidence.ts';
import { isRecord } from '../proof/report.ts';
import { type ShownCheck, shownCheck } from './check-list.ts';
import { noteLine } from './check-notes.ts';

const PIN_PREFIX = 'tyche-log-pin:';
export const WITNESS_KEYS_ITEM = 'tyche-witness-keys';
const TSA_TRUST_ITEM = 'tyche-tsa-trust';

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
function typedWitnessKeys(): string[] {
  return (storage()?.getItem(WITNESS_KEYS_ITEM) ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function rememberWitnessKeys(text: string): void {
  storage()?.setItem(WITNESS_KEYS_ITEM, text);
}

/** The TSA roots (PEM) the visitor added to those the page carries, as `--tsa-trust` does. */
export function typedTsaTrust(): string[] {
  const text = storage()?.getItem(TSA_TRUST_ITEM) ?? '';
  return text.includes('-----BEGIN CERTIFICATE-----') ? [text] : [];
}

interface Logged {
  annotations: Record<string, unknown>;
  certificate?: Record<string, unknown>;
  seal?: Record<string, unknown>;
}

/** The visitor's requirement: `?require_outside=N` in this page's address (0 when absent). */
function requiredOutside(): number | string {
  const search = globalThis.location?.search ?? '';
  return parseRequiredOutside(new URLSearchParams(search).get('require_outside'));
}

/**
 * §13's verdict on the seal's time, under the requirement in the address. An instant draw has no
 * seal: it gets a line only when the visitor requires outside evidence.
 */
function sealTime(seal: unknown, outside: readonly OutsideAttestation[]): ShownCheck[] {
  const required = requiredOutside();
  if (typeof required === 'string') {
    return [{ label: 'Seal time', state: 'bad', detail: `?require_outside: ${required}` }];
  }
  if (seal === undefined) return required === 0 ? [] : [shownCheck(noSealCheck(required))];
  return [shownCheck(sealTimeCheck(outside, seal, required))];
}

async function run(
  logged: Logged,
  keys: unknown,
): Promise<{ checks: ShownCheck[]; outside: OutsideAttestation[] }> {
  try {
    const { checks, outside } = await checkAgainstLog({
      source: pageSource,
      pins: browserPins,
      keysDocument: keys,
      ...logged,
      witnessKeys: typedWitnessKeys(),
      sha256: (data) => sha256(data),
    });
    return { checks: checks.map(shownCheck), outside };
  } catch (error) {
    const detail = `could not be read: ${(error as Error).message}`;
    return { checks: [{ label: 'Transparency log', state: 'bad', detail }], outside: [] };
  }
}

/**
 * The log's checks of the certificate (and its seal) as page lines, then the verdict on the
 * seal's time; no log index is a note, not a pass.
 */
export async function pageLogChecks(
  document: unknown,
  keys: unknown,
  /** The attestations the verifier found beside the log's: the seal's valid TSA tokens (§13). */
  stamped: readonly OutsideAttestation[] = [],
): Promise<ShownCheck[]> {
  const { signed, annotations } = splitLogAnnotations(document);
  const seal = isRecord(signed) && isRecord(signed.seal) ? signed.seal : undefined;
  const logged =
    isRecord(signed) && 'log_index' in annotations
      ? await run({ annotations, certificate: signed, seal }, keys)
      : {
          checks: [noteLine('logLabel', 'logNoCertificateEntry')],
          outside: [],
        };
  return [...logged.checks, ...sealTime(seal, [...logged.outside, ...stamped])];
}

/** The receipt page's: the seal at the giveaway's log index, and once drawn the certificate as above. */
export async function pageSealLogChecks(
  giveaway: { log_index?: number | null },
  seal: object,
  certificate: unknown,
  keys: unknown,
  stamped: readonly OutsideAttestation[] = [],
): Promise<ShownCheck[]> {
  if (certificate !== undefined) return pageLogChecks(certificate, keys, stamped);
  const logged =
    typeof giveaway.log_index === 'number'
      ? await run(
          { annotations: { seal_log_index: giveaway.log_index }, seal: seal as Record<string, unknown> },
          keys,
        )
      : {
          checks: [noteLine('logLabel', 'logNoSealEntry')],
          outside: [],
        };
  return [...logged.checks, ...sealTime(seal, [...logged.outside, ...stamped])];
}

/**
 * Shows the visitor's settings (witness keys, outside attestations required) once the script runs,
 * keeps the keys in this browser and the requirement in the address (the fragment, a receipt
 * code, stays), and calls `changed` after either changes.
 */
export function wireEvidenceSettings(changed: () => void): void {
  const settings = document.getElementById('evidence-settings');
  const witnesses = document.getElementById('witness-keys');
  const required = document.getElementById('require-outside');
  if (!settings || !(witnesses instanceof HTMLTextAreaElement) || !(required instanceof HTMLInputElement))
    return;
  settings.hidden = false;
  witnesses.value = typedWitnessKeys().join('\n');
  const asked = requiredOutside();
  required.value = typeof asked === 'number' ? String(asked) : '';
  witnesses.addEventListener('change', () => {
    rememberWitnessKeys(witnesses.value);
    changed();
  });
  const tsaTrust = document.getElementById('tsa-trust');
  if (tsaTrust instanceof HTMLTextAreaElement) {
    tsaTrust.value = storage()?.getItem(TSA_TRUST_ITEM) ?? '';
    tsaTrust.addEventListener('change', () => {
      storage()?.setItem(TSA_TRUST_ITEM, tsaTrust.value);
      changed();
    });
  }
  required.addEventListener('change', () => {
    const url = new URL(location.href);
    const n = required.value.trim();
    if (n === '' || n === '0') url.searchParams.delete('require_outside');
    else url.searchParams.set('require_outside', n);
    history.replaceState(history.state, '', url);
    changed();
  });
}
