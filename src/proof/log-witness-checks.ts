// The seal's witness evidence (CONTRACT §8): the checkpoint its witnesses cosigned must be
// signed by the log key, be extended by the fresh checkpoint and hold the seal; its cosignatures
// count under the witness keys the reader chose. Pure, like the rest of the log checks.

import { phrase } from './check-phrases.ts';
import { type Checkpoint, openCheckpoint } from './checkpoint.ts';
import { COSIGNATURE_ED25519, verifyCosignatures } from './cosignature.ts';
import type { Sha256 } from './digest.ts';
import { leafDataOf } from './log-entry.ts';
import { hashes, inclusionProblem } from './log-inclusion.ts';
import { verifyConsistency } from './merkle-proofs.ts';
import { parseVerifierKey } from './note.ts';
import { type OutsideAttestation, outsideBefore, sealRoundAt } from './outside-evidence.ts';
import { type Check, isRecord, makeCheck } from './report.ts';

const SEAL_WITNESSED = (n: number) => `seal witnessed before the round by ${n} witness${n === 1 ? '' : 'es'}`;

/**
 * The seal's witness evidence (seal_witness), judged under `trusted` witness keys only, with the
 * consistency proof from the witnessed checkpoint's size to the fresh one.
 */
export interface WitnessEvidence {
  seal: Record<string, unknown>;
  sealWitness: unknown;
  trusted: readonly string[];
  consistency?: readonly string[];
}

const WITNESSED = { id: 'witnessed-checkpoint', label: 'Witnessed checkpoint' } as const;
const WITNESSES = { id: 'seal-witness', label: 'Seal witnesses' } as const;

export interface WitnessVerdict {
  checks: Check[];
  outside: OutsideAttestation[];
  /** False when the witnessed checkpoint and the fresh one cannot both be the log's history. */
  consistent: boolean;
}

/** A mistyped witness key is said at once, not only on the day a seal is witnessed. */
function witnessKeyProblem(trusted: readonly string[]): string | null {
  for (const key of trusted) {
    let problem: string | null = null;
    try {
      if (parseVerifierKey(key).type !== COSIGNATURE_ED25519) problem = 'it is not a witness (cosigner) key';
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem) return `the witness key ${JSON.stringify(key)}: ${problem}`;
  }
  return null;
}

/**
 * Why the witnessed checkpoint is not evidence about this seal in this log, or null: it must be
 * signed by the log key, extend into the fresh checkpoint (RFC 9162 §2.1.4: a log rewritten after
 * its witnesses saw it fails here), and hold the seal at its published index.
 */
function witnessedProblem(
  w: WitnessEvidence & { sealWitness: Record<string, unknown> },
  sha256: Sha256,
  fresh: Checkpoint,
  sealIndex: unknown,
  witnessed: Checkpoint,
): { problem: string | null; consistent: boolean } {
  const sw = w.sealWitness;
  if (witnessed.size > fresh.size) {
    return {
      consistent: false,
      problem: `the witnessed checkpoint has ${witnessed.size} entries, the log only ${fresh.size}: the log was rolled back after its witnesses saw it`,
    };
  }
  const proof = hashes(w.consistency ?? []);
  if (!proof || !verifyConsistency(witnessed.size, fresh.size, witnessed.root, fresh.root, proof, sha256)) {
    return {
      consistent: false,
      problem: `the log at size ${fresh.size} is not an extension of the checkpoint its witnesses cosigned at size ${witnessed.size}: it was rewritten after they saw it`,
    };
  }
  if (sw.index !== sealIndex) {
    return {
      consistent: true,
      problem: `the witnessed seal is entry ${String(sw.index)}, not ${String(sealIndex)}`,
    };
  }
  const outside = inclusionProblem(leafDataOf(w.seal), sw.index, sw.proof, witnessed, sha256);
  return {
    consistent: true,
    problem: outside && `the witnessed checkpoint does not include this seal: ${outside}`,
  };
}

/**
 * The seal's witness evidence: the witnessed checkpoint as evidence about this log and seal, then
 * its cosignatures under the keys the reader gave. The verdict on the seal's time is not said
 * here: outside-evidence.ts weighs these attestations with those of any other source.
 */
export function witnessChecks(
  e: { witness?: WitnessEvidence; logKey: string; sha256: Sha256 },
  fresh: Checkpoint,
  sealIndex: unknown,
): WitnessVerdict {
  const none: WitnessVerdict = { checks: [], outside: [], consistent: true };
  const w = e.witness;
  const badKey = witnessKeyProblem(w?.trusted ?? []);
  if (badKey) return { ...none, checks: [makeCheck(WITNESSES.id, WITNESSES.label, badKey, '')] };
  if (!w || w.sealWitness === undefined || w.sealWitness === null) return none;
  const fail = (problem: string, consistent = true): WitnessVerdict => ({
    ...none,
    consistent,
    checks: [makeCheck(WITNESSED.id, WITNESSED.label, problem, '')],
  });
  const sealWitness = w.sealWitness;
  if (!isRecord(sealWitness)) return fail('seal_witness is not an object');
  const opened = openCheckpoint(String(sealWitness.checkpoint), e.logKey);
  if (!opened.ok) return fail(`the witnessed checkpoint: ${opened.problem}`);
  const witnessed = opened.checkpoint;
  const { problem, consistent } = witnessedProblem(
    { ...w, sealWitness },
    e.sha256,
    fresh,
    sealIndex,
    witnessed,
  );
  if (problem) return fail(problem, consistent);

  let cosigners: { name: string; timestamp: number }[];
  try {
    cosigners = w.trusted.length ? verifyCosignatures(opened.note, w.trusted).cosigners : [];
  } catch (error) {
    return fail(`a witness key: ${(error as Error).message}`);
  }
  const outside = cosigners.map((c) => ({ kind: 'witness' as const, by: c.name, at: c.timestamp * 1000 }));
  const before = outsideBefore(outside, sealRoundAt(w.seal)).length;
  const lines = opened.note.signatures.filter((sig) => sig.name !== witnessed.origin).length;
  const by = cosigners.length
    ? `cosigned by ${cosigners.length} witness${cosigners.length === 1 ? '' : 'es'} you trust, ${before} of them before the round`
    : `it carries ${lines} cosignature${lines === 1 ? '' : 's'}, none by a witness key you gave`;
  const checks = [
    makeCheck(
      WITNESSED.id,
      WITNESSED.label,
      null,
      phrase(
        cosigners.length ? 'witnessed-trusted' : 'witnessed-untrusted',
        {
          index: String(sealIndex),
          size: witnessed.size,
          fresh: fresh.size,
          ...(cosigners.length ? { cosigners: cosigners.length, before } : { lines }),
        },
        `the seal is entry ${String(sealIndex)} of the checkpoint at size ${witnessed.size}, which the log at size ${fresh.size} extends; ${by}`,
      ),
    ),
  ];
  if (before > 0)
    checks.push(
      makeCheck(
        WITNESSES.id,
        WITNESSES.label,
        null,
        phrase('seal-witnessed', { count: before }, SEAL_WITNESSED(before)),
      ),
    );
  return { checks, outside, consistent: true };
}
