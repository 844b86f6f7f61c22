// What a published seal or certificate proves about the transparency log (CONTRACT §8), decided
// from evidence already fetched: the log's checkpoint under the key the reader pinned, that it
// extends the newest one seen before, each object's inclusion, the object's signing key as the
// log's own key entries announced it, and the seal's witnesses under keys the reader chose: the
// checkpoint they cosigned must be one the fresh checkpoint extends (log-witness-checks.ts).
// Pure, so `tyche verify`, tyche-verify.mjs and the pages decide the same way.

import { certificateLeafForms } from './certificate-entry.ts';
import { phrase } from './check-phrases.ts';
import { type Checkpoint, openCheckpoint } from './checkpoint.ts';
import type { Sha256 } from './digest.ts';
import { toBase64url } from './hex.ts';
import { leafDataOf, openKeyEntry, readLogEntry } from './log-entry.ts';
import { hashes, inclusionProblem } from './log-inclusion.ts';
import { type WitnessEvidence, witnessChecks } from './log-witness-checks.ts';
import { verifyConsistency } from './merkle-proofs.ts';
import { parseVerifierKey } from './note.ts';
import type { OutsideAttestation } from './outside-evidence.ts';
import { type Check, isRecord, type Label, makeCheck } from './report.ts';
import { type Ed25519Verify, objectSignatureProblem } from './signed-object.ts';

export type LoggedWhat = 'seal' | 'certificate' | 'result' | 'amendment';

/** A signed object, the log index published beside it and its inclusion proof at the checkpoint's size. */
export interface LoggedObject {
  what: LoggedWhat;
  object: Record<string, unknown>;
  index: unknown;
  proof?: readonly string[];
  /** How its checks name it when there are several of one kind: "amendment 2". */
  name?: string;
  /** Why no index is known for it, when the verifier looked for it in the log and found none. */
  missing?: string;
}

/** One log entry about a signing key, as the log served it, with its inclusion proof. */
export interface KeyEntryEvidence {
  index: number;
  leafData: Uint8Array | null;
  proof: readonly string[];
}

/**
 * How the reader came to trust the log key: given (and how: "--log-key"), pinned by an earlier
 * run, or pinned now on first use. Each is its own detail code of the checkpoint check
 * (`log-checkpoint-<code>`), so a page says it in its reader's language like any other detail.
 */
export type KeySource = { code: 'given'; given: string } | { code: 'pinned-earlier' | 'pinned-now' };

export interface LogEvidence {
  /** The log's note verifier key the reader pinned (or gave). */
  logKey: string;
  /** How the key came to be trusted, for the report. */
  keySource: KeySource;
  /** The fresh checkpoint note. */
  checkpoint: string;
  /** The newest checkpoint seen before, and the consistency proof from it to the fresh one. */
  previous?: { checkpoint: string; proof?: readonly string[] };
  objects: LoggedObject[];
  /** Entries about each signing key (by kid), from the keys document's log_indices. */
  keyEntries: Record<string, readonly KeyEntryEvidence[]>;
  /** The seal's witness evidence, judged under the witness keys the reader chose. */
  witness?: WitnessEvidence;
  sha256: Sha256;
  verify?: Ed25519Verify;
}

/** A per-object label, coded by what the object is (`log-key-amendment`, with its number as `n`). */
function loggedLabel(code: string, text: string, what: LoggedWhat, name: string): Label {
  const n = /^amendment (\d+)$/.exec(name)?.[1];
  return { code: `${code}-${what}`, text, ...(n === undefined ? {} : { params: { n } }) };
}

export interface LogVerdict {
  checks: Check[];
  /** The witnesses' attestations of the seal's time that verified, for the verdict on it. */
  outside: OutsideAttestation[];
  /** The fresh checkpoint, when it may replace the newest one seen: signed, and consistent with it. */
  advance?: string;
}

/**
 * Inclusion of an object as the log holds it: itself, or for a certificate too long for an entry
 * bundle its digest — or, in a log written before digests, the long certificate whole.
 */
function loggedInclusionProblem(
  what: LoggedWhat,
  object: Record<string, unknown>,
  index: unknown,
  proof: unknown,
  at: Checkpoint,
  sha256: Sha256,
): string | null {
  const forms = what === 'certificate' ? certificateLeafForms(object) : [leafDataOf(object)];
  let problem: string | null = null;
  for (const form of forms) {
    problem = inclusionProblem(form, index, proof, at, sha256);
    if (problem === null) return null;
  }
  return problem;
}

/**
 * Why `obj` is not signed by its key as the log announced it before `index`, or null. The last
 * entry about the key before the object must be an announcement, not a retirement (CONTRACT §8).
 */
function keyProblem(
  obj: Record<string, unknown>,
  index: number,
  entries: readonly KeyEntryEvidence[],
  at: Checkpoint,
  logPublicKey: Uint8Array,
  e: LogEvidence,
): string | null {
  const kid = isRecord(obj.signature) && typeof obj.signature.kid === 'string' ? obj.signature.kid : '';
  let state: { publicKey: Uint8Array; retired: boolean } | undefined;
  for (const entry of [...entries].filter((k) => k.index < index).sort((a, b) => a.index - b.index)) {
    const where = `key entry ${entry.index}`;
    if (!entry.leafData) return `${where} is unreadable`;
    const outside = inclusionProblem(entry.leafData, entry.index, entry.proof, at, e.sha256);
    if (outside) return `${where}: ${outside}`;
    const read = readLogEntry(entry.leafData, 'key', kid);
    if (!read.ok) return `${where}: ${read.problem}`;
    const opened = openKeyEntry(read.object, logPublicKey, e.sha256, e.verify);
    if (!opened.ok) return `${where}: ${opened.problem}`;
    state = { publicKey: opened.key.publicKey, retired: opened.key.retiredAt !== undefined };
  }
  if (!state) return `key ${kid || '(none)'} is not announced in the log before entry ${index}`;
  if (state.retired) return `key ${kid} was retired in the log before entry ${index}`;
  const doc = { keys: [{ kty: 'OKP', crv: 'Ed25519', kid, x: toBase64url(state.publicKey) }] };
  return objectSignatureProblem(obj, doc, e.verify);
}

/** Every log check, in order. A check that cannot start (no checkpoint) ends the list. */
export function checkLogEvidence(e: LogEvidence): LogVerdict {
  const fresh = openCheckpoint(e.checkpoint, e.logKey);
  if (!fresh.ok) {
    return { checks: [makeCheck('log-checkpoint', 'Log checkpoint', fresh.problem, '')], outside: [] };
  }
  const at = fresh.checkpoint;
  const checks: Check[] = [
    makeCheck(
      'log-checkpoint',
      'Log checkpoint',
      null,
      phrase(`log-checkpoint-${e.keySource.code}`, {
        origin: at.origin,
        size: at.size,
        ...(e.keySource.code === 'given' ? { given: e.keySource.given } : {}),
      }),
    ),
  ];
  let consistent = true;
  if (e.previous) {
    const older = openCheckpoint(e.previous.checkpoint, e.logKey);
    let problem: string | null = null;
    if (!older.ok)
      problem = `the checkpoint seen before does not open under the pinned key: ${older.problem}`;
    else if (older.checkpoint.size > at.size) {
      problem = `the log shrank from ${older.checkpoint.size} entries seen before to ${at.size}: a rollback`;
    } else {
      const proof = hashes(e.previous.proof);
      const old = older.checkpoint;
      if (!proof || !verifyConsistency(old.size, at.size, old.root, at.root, proof, e.sha256)) {
        problem = `the log at size ${at.size} is not an extension of the one seen before at size ${old.size}: it was rewritten`;
      }
    }
    const seen = older.ok ? older.checkpoint.size : 0;
    checks.push(
      makeCheck('log-consistency', 'Log consistency', problem, phrase('log-consistency-ok', { size: seen })),
    );
    consistent = problem === null;
  }

  // openCheckpoint has parsed this key already, so it is well formed here.
  const logPublicKey = parseVerifierKey(e.logKey).publicKey;
  for (const { what, object, index, proof, name = what, missing } of e.objects) {
    const outside =
      index === undefined && missing
        ? missing
        : loggedInclusionProblem(what, object, index, proof, at, e.sha256);
    const tag = name.replaceAll(' ', '-');
    checks.push(
      makeCheck(
        `log-inclusion-${tag}`,
        loggedLabel('log-inclusion', `Log inclusion (${name})`, what, name),
        outside && `the ${name}: ${outside}`,
        phrase(
          'log-inclusion-ok',
          { index: String(index), size: at.size },
          `the ${name} is entry ${String(index)} of the log of size ${at.size}`,
        ),
      ),
    );
    if (outside) continue;
    const kid = isRecord(object.signature) ? String(object.signature.kid) : '';
    const problem = keyProblem(
      object,
      index as number,
      Object.hasOwn(e.keyEntries, kid) ? e.keyEntries[kid] : [],
      at,
      logPublicKey,
      e,
    );
    checks.push(
      makeCheck(
        `log-key-${tag}`,
        loggedLabel('log-key', `Signing key in the log (${name})`, what, name),
        problem,
        phrase('log-key-ok', { index: String(index) }),
      ),
    );
  }
  const seal = e.objects.find((o) => o.what === 'seal');
  const witness = witnessChecks(e, at, seal?.index);
  checks.push(...witness.checks);
  // Two checkpoints the log signed that cannot both be its history: the fresh one is not kept.
  const keep = consistent && witness.consistent;
  return { checks, outside: witness.outside, advance: keep ? e.checkpoint : undefined };
}
