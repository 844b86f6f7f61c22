import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { Clock } from '../clock.ts';
import type { KeyedPlace } from '../config.ts';
import { type AddCheckpoint, parseAddCheckpoint, SIZE_CONTENT_TYPE } from '../log/add-checkpoint.ts';
import { type Checkpoint, parseCheckpoint } from '../proof/checkpoint.ts';
import { cosign, cosignerVerifierKey } from '../proof/cosignature.ts';
import { bytesEqual } from '../proof/hex.ts';
import { verifyConsistency } from '../proof/merkle-proofs.ts';
import { formatSignatureLine, type ParsedNote, parseNote, verifyNote } from '../proof/note.ts';
import type { WitnessRepository } from './witness.repository.ts';

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

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/**
 * A witness per c2sp.org/tlog-witness: for each log it knows (TYCHE_WITNESS_LOGS), it keeps the
 * newest checkpoint it cosigned and cosigns a new one only when it is signed by the log's key and
 * consistent with that one. So a log that shows two different trees to two parties cannot get both
 * cosigned by one witness.
 */
export function createWitness(deps: {
  name: string;
  logs: readonly KeyedPlace[];
  repository: WitnessRepository;
  clock: Clock;
}) {
  const { name, logs, repository, clock } = deps;
  let seed: Promise<Uint8Array> | undefined;
  const key = () => {
    seed ??= repository.seed(clock.now().getTime()).catch((error: unknown) => {
      seed = undefined;
      throw error;
    });
    return seed;
  };

  function read(body: string): { request: AddCheckpoint; note: ParsedNote; checkpoint: Checkpoint } | string {
    try {
      const request = parseAddCheckpoint(body);
      const note = parseNote(request.note);
      return { request, note, checkpoint: parseCheckpoint(note.text) };
    } catch (error) {
      return (error as Error).message;
    }
  }

  return {
    /** The witness's note verifier key (cosigner type 0x04), for the logs that ask it. */
    async verifierKey(): Promise<string> {
      return cosignerVerifierKey(name, ed25519.getPublicKey(await key()));
    },

    async addCheckpoint(body: string): Promise<WitnessAnswer> {
      const parsed = read(body);
      if (typeof parsed === 'string') return refuse(400, parsed);
      const { request, note, checkpoint } = parsed;
      const log = logs.find((l) => l.place === checkpoint.origin);
      if (!log) return refuse(404, `this witness does not know the log ${checkpoint.origin}`);
      if (!verifyNote(note, [log.key]).verified.length) {
        return refuse(403, `no signature by the key of ${checkpoint.origin} verifies`);
      }
      if (request.oldSize > checkpoint.size) {
        return refuse(400, `old size ${request.oldSize} is beyond the checkpoint's ${checkpoint.size}`);
      }
      const latest = await repository.latest(checkpoint.origin);
      const conflict = (size: number): WitnessAnswer => ({
        status: 409,
        contentType: SIZE_CONTENT_TYPE,
        body: `${size}\n`,
      });
      if (request.oldSize !== (latest?.size ?? 0)) return conflict(latest?.size ?? 0);
      if (latest && latest.size === checkpoint.size) {
        // Same size, another root: a fork. The record stays; the answer names the size it holds.
        if (!bytesEqual(latest.root, checkpoint.root)) return conflict(latest.size);
      } else if (request.oldSize === 0) {
        if (request.proof.length > 0) return refuse(422, 'a proof from size 0 must be empty');
      } else if (
        !latest ||
        !verifyConsistency(latest.size, checkpoint.size, latest.root, checkpoint.root, request.proof, sha256)
      ) {
        return refuse(422, `the consistency proof from size ${request.oldSize} does not verify`);
      }
      const now = clock.now().getTime();
      if (!latest || latest.size !== checkpoint.size) {
        const moved = await repository.advance(checkpoint.origin, latest, {
          size: checkpoint.size,
          root: checkpoint.root,
          checkpoint: request.note,
          at: now,
        });
        if (!moved) return conflict((await repository.latest(checkpoint.origin))?.size ?? 0);
      }
      const signature = cosign(note.text, name, await key(), Math.floor(now / 1000));
      return { status: 200, contentType: TEXT, body: formatSignatureLine(signature) };
    },
  };
}

export type Witness = ReturnType<typeof createWitness>;
