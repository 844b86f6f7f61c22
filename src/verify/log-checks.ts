// The transparency-log checks of `tyche verify` and tyche-verify.mjs (CONTRACT §8): the log key
// pinned on first use, a fresh checkpoint consistent with the newest one seen before, each signed
// object's inclusion, its signing key taken from the log's own key entries, and the seal's
// witnesses — counted only under keys the reader gave, never keys that come with the certificate.

import { createHash } from 'node:crypto';
import { readPin, writePin } from '../log/log-pin.ts';
import { openCheckpoint } from '../proof/checkpoint.ts';
import { verifyCosignatures } from '../proof/cosignature.ts';
import { fromBase64, fromHex } from '../proof/hex.ts';
import { leafDataOf, openKeyEntry, readLogEntry } from '../proof/log-entry.ts';
import { leafHash, verifyInclusion } from '../proof/merkle.ts';
import { verifyConsistency } from '../proof/merkle-proofs.ts';
import { parseVerifierKey } from '../proof/note.ts';
import { type Check, isRecord } from '../proof/report.ts';
import { objectSignatureProblem } from '../proof/signed-object.ts';
import { CannotCheck, fetchJson } from './verify-inputs.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

export const SEAL_WITNESSED = (n: number) =>
  `seal witnessed before the round by ${n} witness${n === 1 ? '' : 'es'}`;
export const SEAL_OPERATOR_ONLY = 'seal time attested by the operator only';

export interface LogCheckInput {
  server: string;
  /** The published document's annotations (log_index, seal_log_index, seal_witness). */
  annotations: Record<string, unknown>;
  /** The signed certificate, and for v2 its seal. */
  certificate: Record<string, unknown>;
  seal?: Record<string, unknown>;
  logKey?: string;
  witnessKeys: string[];
  env: Record<string, string | undefined>;
}

const check = (id: string, label: string, problem: string | null, ok: string): Check =>
  problem === null ? { id, label, ok: true, detail: ok } : { id, label, ok: false, detail: problem };

async function inclusion(
  server: string,
  index: number,
  size: number,
  leafData: Uint8Array,
  root: Uint8Array,
) {
  if (!Number.isSafeInteger(index) || index < 0) return `log index ${String(index)} is not an entry`;
  if (index >= size) return `entry ${index} is beyond the checkpoint's size ${size}`;
  const { json } = await fetchJson(
    `${server}/log/proof/inclusion?index=${index}&size=${size}`,
    'inclusion proof',
  );
  const proof = isRecord(json) && Array.isArray(json.proof) ? json.proof.map((h) => fromHex(String(h))) : [];
  return verifyInclusion(leafHash(leafData, sha256), index, size, proof, root, sha256)
    ? null
    : `entry ${index} is not this object in the log of size ${size}`;
}

/** The signing key of `obj` as the log announced it before `index`, checked entry by entry. */
async function keyFromLog(
  server: string,
  obj: Record<string, unknown>,
  index: number,
  size: number,
  root: Uint8Array,
  logPublicKey: Uint8Array,
): Promise<string | null> {
  const kid = isRecord(obj.signature) ? String(obj.signature.kid) : '';
  const { json } = await fetchJson(`${server}/.well-known/tyche-keys.json`, 'keys document');
  const keys = isRecord(json) && Array.isArray(json.keys) ? json.keys : [];
  const listed = keys.find((k) => isRecord(k) && k.kid === kid);
  const indices = isRecord(listed) && Array.isArray(listed.log_indices) ? listed.log_indices.map(Number) : [];
  let state: { publicKey: Uint8Array; retired: boolean } | undefined;
  for (const i of indices.filter((n) => n < index).sort((a, b) => a - b)) {
    const page = await fetchJson(`${server}/log/entries?start=${i}&end=${i + 1}`, 'key entry');
    const entry = isRecord(page.json) && Array.isArray(page.json.entries) ? page.json.entries[0] : undefined;
    const leaf = isRecord(entry) && typeof entry.leaf_data === 'string' ? fromBase64(entry.leaf_data) : null;
    if (!leaf) return `the log's entry ${i} is unreadable`;
    const outside = await inclusion(server, i, size, leaf, root);
    if (outside) return `key entry ${i}: ${outside}`;
    const read = readLogEntry(leaf, 'key', kid);
    if (!read.ok) return `key entry ${i}: ${read.problem}`;
    const opened = openKeyEntry(read.object, logPublicKey, sha256);
    if (!opened.ok) return `key entry ${i}: ${opened.problem}`;
    state = { publicKey: opened.key.publicKey, retired: opened.key.retiredAt !== undefined };
  }
  if (!state) return `key ${kid} is not announced in the log before entry ${index}`;
  if (state.retired) return `key ${kid} was retired in the log before entry ${index}`;
  const doc = {
    keys: [{ kty: 'OKP', crv: 'Ed25519', kid, x: Buffer.from(state.publicKey).toString('base64url') }],
  };
  return objectSignatureProblem(obj, doc);
}

function witnessCheck(input: LogCheckInput, logKey: string): Check {
  const label = 'Seal witnesses';
  const witness = input.annotations.seal_witness;
  const roundAt = isRecord(input.seal?.beacon) ? Date.parse(String(input.seal.beacon.round_at)) : Number.NaN;
  if (!isRecord(witness)) return check('seal-witness', label, null, SEAL_OPERATOR_ONLY);
  const opened = openCheckpoint(String(witness.checkpoint), logKey);
  if (!opened.ok) return check('seal-witness', label, `the witnessed checkpoint: ${opened.problem}`, '');
  const { size, root } = opened.checkpoint;
  const proof = Array.isArray(witness.proof) ? witness.proof.map((h) => fromHex(String(h))) : [];
  const leaf = leafHash(leafDataOf(input.seal), sha256);
  if (
    witness.index !== input.annotations.seal_log_index ||
    !verifyInclusion(leaf, Number(witness.index), size, proof, root, sha256)
  ) {
    return check('seal-witness', label, 'the witnessed checkpoint does not include this seal', '');
  }
  const trusted = input.witnessKeys.length
    ? verifyCosignatures(opened.note, input.witnessKeys).cosigners
    : [];
  const before = trusted.filter((c) => c.timestamp * 1000 < roundAt);
  return check(
    'seal-witness',
    label,
    null,
    before.length ? SEAL_WITNESSED(before.length) : SEAL_OPERATOR_ONLY,
  );
}

/** Every log check, in order; the pin is updated only when all of them pass. */
export async function logChecks(input: LogCheckInput): Promise<Check[]> {
  const { server, annotations } = input;
  const { json } = await fetchJson(`${server}/.well-known/tyche-keys.json`, 'keys document');
  const published = isRecord(json) && isRecord(json.log) ? json.log : {};
  const origin = typeof published.origin === 'string' ? published.origin : '';
  const pin = readPin(input.env, origin);
  const logKey = input.logKey ?? pin?.log_key ?? (typeof published.key === 'string' ? published.key : '');
  const checks: Check[] = [];
  let key: ReturnType<typeof parseVerifierKey>;
  try {
    key = parseVerifierKey(logKey);
  } catch (error) {
    return [check('log-key', 'Log key', `no usable log key: ${(error as Error).message}`, '')];
  }
  if (input.logKey && pin && pin.log_key !== input.logKey) {
    return [check('log-key', 'Log key', `--log-key differs from the key pinned for ${origin}`, '')];
  }
  const how = input.logKey ? 'given with --log-key' : pin ? 'pinned earlier' : 'pinned now, on first use';
  const noteRes = await fetch(`${server}/log/checkpoint`).catch((error: Error) => {
    throw new CannotCheck(`cannot reach ${server}/log/checkpoint: ${error.message}`);
  });
  const note = await noteRes.text();
  const fresh = openCheckpoint(note, key);
  checks.push(
    check(
      'log-checkpoint',
      'Log checkpoint',
      fresh.ok ? null : fresh.problem,
      fresh.ok ? `${key.name} at size ${fresh.checkpoint.size}, signed by the log key (${how})` : '',
    ),
  );
  if (!fresh.ok) return checks;
  const { size, root } = fresh.checkpoint;

  const older = pin?.checkpoint ? openCheckpoint(pin.checkpoint, key) : undefined;
  if (older?.ok) {
    const old = older.checkpoint;
    let problem: string | null = null;
    if (old.size > size)
      problem = `the log shrank from ${old.size} entries seen before to ${size}: a rollback`;
    else {
      const { json: c } = await fetchJson(
        `${server}/log/proof/consistency?first=${old.size}&second=${size}`,
        'consistency proof',
      );
      const proof = isRecord(c) && Array.isArray(c.proof) ? c.proof.map((h) => fromHex(String(h))) : [];
      if (!verifyConsistency(old.size, size, old.root, root, proof, sha256)) {
        problem = `the log at size ${size} is not an extension of the one seen before at size ${old.size}: it was rewritten`;
      }
    }
    checks.push(
      check(
        'log-consistency',
        'Log consistency',
        problem,
        `the log only grew since size ${old.size}, seen before`,
      ),
    );
  }

  const objects: [string, Record<string, unknown>, unknown][] = [
    ['certificate', input.certificate, annotations.log_index],
  ];
  if (input.seal) objects.unshift(['seal', input.seal, annotations.seal_log_index]);
  for (const [what, obj, index] of objects) {
    const i = Number(index);
    const outside =
      index === null || index === undefined
        ? `the ${what} names no log index`
        : await inclusion(server, i, size, leafDataOf(obj), root);
    checks.push(
      check(
        `log-inclusion-${what}`,
        `Log inclusion (${what})`,
        outside,
        `the ${what} is entry ${i} of the log of size ${size}`,
      ),
    );
    if (outside) continue;
    const keyProblem = await keyFromLog(server, obj, i, size, root, key.publicKey);
    checks.push(
      check(
        `log-key-${what}`,
        `Signing key in the log (${what})`,
        keyProblem,
        `its key was announced in the log before entry ${i} and not retired`,
      ),
    );
  }
  if (input.seal) checks.push(witnessCheck(input, logKey));

  if (checks.every((c) => c.ok) && (!older?.ok || older.checkpoint.size <= size)) {
    writePin(input.env, { origin: key.name, log_key: logKey, checkpoint: note });
  }
  return checks;
}
