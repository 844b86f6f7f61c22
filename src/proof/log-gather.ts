// The log checks as every verifier runs them: which log key to trust (given, pinned, or the
// server's on first use), what to fetch from the log, and when to remember the fresh checkpoint.
// No Node built-ins: `tyche verify` and tyche-verify.mjs pass a file-backed pin store and Node's
// fetch, the pages localStorage and the browser's fetch; the decision is proof/log-evidence.ts.

import { openCheckpoint } from './checkpoint.ts';
import type { Sha256 } from './digest.ts';
import { fromBase64 } from './hex.ts';
import {
  checkLogEvidence,
  type KeyEntryEvidence,
  type KeySource,
  type LogEvidence,
  type LoggedObject,
} from './log-evidence.ts';
import { parseVerifierKey } from './note.ts';
import type { OutsideAttestation } from './outside-evidence.ts';
import { type Check, isRecord, makeCheck } from './report.ts';

/** What a verifier keeps per log: the key it pinned and the newest checkpoint it has seen. */
export interface LogPin {
  origin: string;
  log_key: string;
  checkpoint: string;
}

export interface PinStore {
  read(origin: string): LogPin | undefined;
  write(pin: LogPin): void;
}

/** The server's log endpoints; each throws when the server cannot be read. */
export interface LogSource {
  json(path: string, what: string): Promise<unknown>;
  text(path: string, what: string): Promise<string>;
}

export interface LogCheckRequest {
  source: LogSource;
  pins: PinStore;
  /** The server's /.well-known/tyche-keys.json: its `log` and each key's `log_indices`. */
  keysDocument: unknown;
  /** log_index, seal_log_index and seal_witness, as published beside the certificate. */
  annotations: Record<string, unknown>;
  /** The certificate, and its seal or (before the draw) the seal alone. */
  certificate?: Record<string, unknown>;
  seal?: Record<string, unknown>;
  /** Or a signed result's log entry, found at the result's `log_index` (proof/result-entry.ts). */
  result?: Record<string, unknown>;
  /** A log key the reader gave, and how they gave it ("--log-key"). */
  logKey?: string;
  givenAs?: string;
  witnessKeys: readonly string[];
  sha256: Sha256;
}

const keyCheck = (problem: string): LogCheckResult => ({
  checks: [makeCheck('log-key', 'Log key', problem, '')],
  outside: [],
});

const proofOf = (json: unknown): readonly string[] =>
  isRecord(json) && Array.isArray(json.proof) ? json.proof.map(String) : [];

/** Every entry about each signing key before the last object it signed, with its inclusion proof. */
async function keyEntries(
  r: LogCheckRequest,
  objects: LoggedObject[],
  size: number,
): Promise<Record<string, KeyEntryEvidence[]>> {
  const keys = isRecord(r.keysDocument) && Array.isArray(r.keysDocument.keys) ? r.keysDocument.keys : [];
  // Only entries before the last object a key signed can decide whether it could sign it.
  const bound = new Map<string, number>();
  for (const { object, index } of objects) {
    if (!Number.isSafeInteger(index)) continue;
    const kid = isRecord(object.signature) ? String(object.signature.kid) : '';
    bound.set(kid, Math.max(bound.get(kid) ?? 0, index as number));
  }
  const out: Record<string, KeyEntryEvidence[]> = Object.create(null);
  for (const [kid, last] of bound) {
    const listed = keys.find((k) => isRecord(k) && k.kid === kid);
    const indices = isRecord(listed) && Array.isArray(listed.log_indices) ? listed.log_indices : [];
    out[kid] = [];
    for (const i of indices.filter(
      (n): n is number => Number.isSafeInteger(n) && n >= 0 && n < last && n < size,
    )) {
      const page = await r.source.json(`/log/entries?start=${i}&end=${i + 1}`, 'key entry');
      const entry = isRecord(page) && Array.isArray(page.entries) ? page.entries[0] : undefined;
      const leafData =
        isRecord(entry) && typeof entry.leaf_data === 'string' ? fromBase64(entry.leaf_data) : null;
      const proof = proofOf(
        await r.source.json(`/log/proof/inclusion?index=${i}&size=${size}`, 'inclusion proof'),
      );
      out[kid].push({ index: i, leafData, proof });
    }
  }
  return out;
}

const ENTRIES_PAGE = 1000;

/**
 * The certificate's amendments (CONTRACT §14) as logged objects. The document names no log index
 * for them, so each is found by its kind and id among the entries after the certificate's (they
 * are appended in sequence after the draw), a page at a time, stopping once every one is found.
 */
async function amendmentObjects(r: LogCheckRequest, size: number): Promise<LoggedObject[]> {
  const amendments = Array.isArray(r.annotations.amendments) ? r.annotations.amendments : [];
  const objects = amendments.map(
    (a, i): LoggedObject => ({
      what: 'amendment',
      name: `amendment ${i + 1}`,
      object: isRecord(a) ? a : {},
      index: undefined,
      missing: 'no entry of kind amendment with its amendment_id follows the certificate in the log',
    }),
  );
  const wanted = new Map(objects.map((o) => [String(o.object.amendment_id), o]));
  const after = r.annotations.log_index;
  let start = Number.isSafeInteger(after) && (after as number) >= 0 ? (after as number) + 1 : 0;
  for (let left = wanted.size; left > 0 && start < size; start += ENTRIES_PAGE) {
    const end = Math.min(size, start + ENTRIES_PAGE);
    const page = await r.source.json(`/log/entries?start=${start}&end=${end}`, 'log entries');
    const entries = isRecord(page) && Array.isArray(page.entries) ? page.entries : [];
    for (const entry of entries) {
      const found = isRecord(entry) && entry.kind === 'amendment' ? wanted.get(String(entry.id)) : undefined;
      if (!found || found.index !== undefined) continue;
      found.index = entry.index;
      left--;
    }
  }
  for (const o of objects.filter((o) => Number.isSafeInteger(o.index))) {
    o.proof = proofOf(
      await r.source.json(`/log/proof/inclusion?index=${o.index}&size=${size}`, 'inclusion proof'),
    );
  }
  return objects;
}

/**
 * The consistency proof from the checkpoint the seal's witnesses cosigned to the fresh one, so
 * that their cosignatures speak of the log this reader sees; none when there is nothing to prove.
 */
async function witnessedConsistency(
  r: LogCheckRequest,
  logKey: string,
  sealWitness: unknown,
  size: number,
): Promise<readonly string[]> {
  if (!isRecord(sealWitness)) return [];
  const witnessed = openCheckpoint(String(sealWitness.checkpoint), logKey);
  const first = witnessed.ok ? witnessed.checkpoint.size : 0;
  if (first <= 0 || first >= size) return [];
  const json = await r.source.json(
    `/log/proof/consistency?first=${first}&second=${size}`,
    'consistency proof',
  );
  return proofOf(json);
}

/** What the log says: its checks, and the witnesses' attestations of the seal's time that verified. */
export interface LogCheckResult {
  checks: Check[];
  outside: OutsideAttestation[];
}

/** The log checks of one certificate (and its seal); the pin is kept up to date as CONTRACT §8 says. */
export async function checkAgainstLog(r: LogCheckRequest): Promise<LogCheckResult> {
  const published = isRecord(r.keysDocument) && isRecord(r.keysDocument.log) ? r.keysDocument.log : {};
  const publishedKey = typeof published.key === 'string' ? published.key : undefined;
  let origin = typeof published.origin === 'string' ? published.origin : '';
  if (r.logKey) {
    try {
      origin = parseVerifierKey(r.logKey).name;
    } catch (error) {
      return keyCheck(`${r.givenAs ?? 'the given key'} is not a log key: ${(error as Error).message}`);
    }
  }
  const pin = origin ? r.pins.read(origin) : undefined;
  if (r.logKey && pin && pin.log_key !== r.logKey) {
    return keyCheck(`${r.givenAs ?? 'the given key'} differs from the key pinned for ${origin}`);
  }
  if (!r.logKey && pin && publishedKey !== pin.log_key) {
    return keyCheck(
      `the server's log key is not the one pinned for ${origin}: this is not the log seen before`,
    );
  }
  const logKey = r.logKey ?? pin?.log_key ?? publishedKey;
  if (!logKey) return keyCheck('the server publishes no log key, and none is pinned or given');
  const keySource: KeySource = r.logKey
    ? { code: 'given', given: r.givenAs ?? 'the request' }
    : { code: pin ? 'pinned-earlier' : 'pinned-now' };

  const note = await r.source.text('/log/checkpoint', 'checkpoint');
  const evidence: LogEvidence = {
    logKey,
    keySource,
    checkpoint: note,
    objects: [],
    keyEntries: {},
    sha256: r.sha256,
  };
  const fresh = openCheckpoint(note, logKey);
  if (fresh.ok) {
    const { size } = fresh.checkpoint;
    const older = pin?.checkpoint ? openCheckpoint(pin.checkpoint, logKey) : undefined;
    if (pin?.checkpoint) {
      evidence.previous = { checkpoint: pin.checkpoint };
      const first = older?.ok ? older.checkpoint.size : -1;
      if (first > 0 && first < size) {
        const json = await r.source.json(
          `/log/proof/consistency?first=${first}&second=${size}`,
          'consistency proof',
        );
        evidence.previous.proof = proofOf(json);
      } else evidence.previous.proof = [];
    }
    const listed: [LoggedObject['what'], Record<string, unknown> | undefined, unknown][] = [
      ['seal', r.seal, r.annotations.seal_log_index],
      ['certificate', r.certificate, r.annotations.log_index],
      ['result', r.result, r.annotations.log_index],
    ];
    for (const [what, object, index] of listed) {
      if (!object) continue;
      const logged: LoggedObject = { what, object, index };
      if (Number.isSafeInteger(index) && (index as number) >= 0 && (index as number) < size) {
        const url = `/log/proof/inclusion?index=${index}&size=${size}`;
        logged.proof = proofOf(await r.source.json(url, 'inclusion proof'));
      }
      evidence.objects.push(logged);
    }
    if (r.certificate) evidence.objects.push(...(await amendmentObjects(r, size)));
    evidence.keyEntries = await keyEntries(r, evidence.objects, size);
    if (r.seal) {
      const sealWitness = r.annotations.seal_witness;
      evidence.witness = { seal: r.seal, sealWitness, trusted: r.witnessKeys };
      evidence.witness.consistency = await witnessedConsistency(r, logKey, sealWitness, size);
    }
  }
  const verdict = checkLogEvidence(evidence);
  // A first pin only after every check passed; a pinned log's checkpoint advances once it is consistent.
  const pinnable = pin ? verdict.advance !== undefined : verdict.checks.every((c) => c.ok);
  if (pinnable && fresh.ok)
    r.pins.write({ origin: fresh.checkpoint.origin, log_key: logKey, checkpoint: note });
  return { checks: verdict.checks, outside: verdict.outside };
}
