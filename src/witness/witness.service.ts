import { createHash } from 'node:crypto';
import { type Checkpoint, parseCheckpoint } from '../proof/checkpoint.ts';
import { cosign } from '../proof/cosignature.ts';
import { bytesEqual } from '../proof/hex.ts';
import { verifyConsistency } from '../proof/merkle-proofs.ts';
import { NOTE_ED25519, type ParsedNote, parseNote, type VerifierKey, verifyNote } from '../proof/note.ts';
import {
  type AddCheckpoint,
  formatCosignatureLines,
  formatSizeAnswer,
  parseAddCheckpoint,
  SIZE_CONTENT_TYPE,
} from '../proof/witness-protocol.ts';
import type { Clock } from '../shared/clock.ts';
import type { WitnessRepository } from './witness.repository.ts';
import type { WitnessKey } from './witness-key.ts';

export interface WitnessAnswer {
  status: 200 | 400 | 403 | 404 | 409 | 422;
  contentType: string;
  body: string;
}

const TEXT = 'text/plain; charset=utf-8';
const refuse = (status: WitnessAnswer['status'], reason: string): WitnessAnswer => ({
  status,
  contentType: TEXT,
  body: `${reason}\n`,
});
const conflict = (size: number): WitnessAnswer => ({
  status: 409,
  contentType: SIZE_CONTENT_TYPE,
  body: formatSizeAnswer(size),
});

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

interface Request {
  request: AddCheckpoint;
  note: ParsedNote;
  checkpoint: Checkpoint;
}

function read(body: string): Request | string {
  try {
    const request = parseAddCheckpoint(body);
    const note = parseNote(request.note);
    return { request, note, checkpoint: parseCheckpoint(note.text) };
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A witness per c2sp.org/tlog-witness: for each log it knows it keeps the newest checkpoint it
 * cosigned, and cosigns a new one only when the log's key signed it and it is consistent with
 * that one. A log that shows two different trees to two parties thus cannot have both cosigned
 * by one witness. The checks run in the order the spec lists them, so each refusal has the
 * status the spec gives it.
 */
export function createWitness(deps: {
  name: string;
  key: WitnessKey;
  /** The logs it witnesses: each origin and the key its checkpoints are signed with. */
  logs: readonly { place: string; key: VerifierKey }[];
  repository: WitnessRepository;
  clock: Clock;
}) {
  const { name, key, logs, repository, clock } = deps;
  for (const log of logs) {
    if (log.key.type !== NOTE_ED25519) {
      throw new TypeError(`the key of the log ${log.place} is not an Ed25519 note key (type 0x01)`);
    }
  }

  async function addCheckpoint(body: string): Promise<WitnessAnswer> {
    const parsed = read(body);
    if (typeof parsed === 'string') return refuse(400, parsed);
    const { request, note, checkpoint } = parsed;
    const { origin } = checkpoint;
    const log = logs.find((l) => l.place === origin);
    if (!log) return refuse(404, `this witness does not know the log ${origin}`);
    // Other signatures (the log's other keys, other witnesses' cosignatures) are set aside.
    if (verifyNote(note, [log.key]).verified.length === 0) {
      return refuse(403, `no signature by the key of ${origin} verifies`);
    }
    if (request.oldSize > checkpoint.size) {
      return refuse(400, `old size ${request.oldSize} is beyond the checkpoint's ${checkpoint.size}`);
    }
    const latest = await repository.latest(origin);
    if (request.oldSize !== (latest?.size ?? 0)) return conflict(latest?.size ?? 0);

    if (latest && latest.size === checkpoint.size) {
      if (request.proof.length > 0) return refuse(422, 'a proof between equal sizes must be empty');
      // The log's key signed two trees of one size: a fork. The record stays as it is.
      if (!bytesEqual(latest.root, checkpoint.root)) return conflict(latest.size);
    } else {
      if (request.oldSize === 0) {
        if (request.proof.length > 0) return refuse(422, 'a proof from size 0 must be empty');
      } else if (
        !latest ||
        !verifyConsistency(latest.size, checkpoint.size, latest.root, checkpoint.root, request.proof, sha256)
      ) {
        return refuse(422, `the consistency proof from size ${request.oldSize} does not verify`);
      }
      const moved = await repository.advance(origin, latest, {
        size: checkpoint.size,
        root: checkpoint.root,
        checkpoint: request.note,
        at: clock.now().getTime(),
      });
      // Another submission moved the record between our read and our write.
      if (!moved) return conflict((await repository.latest(origin))?.size ?? 0);
    }
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    return {
      status: 200,
      contentType: TEXT,
      body: formatCosignatureLines([cosign(note.text, name, key.seed, timestamp)]),
    };
  }

  return { name, verifierKey: key.verifierKey, addCheckpoint };
}

export type Witness = ReturnType<typeof createWitness>;
