import type { Kysely } from 'kysely';
import type { JobRepository } from '../jobs/job.repository.ts';
import { formatCheckpoint } from '../proof/checkpoint.ts';
import { toHex } from '../proof/hex.ts';
import { type LogEntryKind, loggedLeafData } from '../proof/log-entry.ts';
import {
  formatNote,
  type NoteSignature,
  noteSignature,
  parseSignatureLine,
  verifierKey,
} from '../proof/note.ts';
import type { SigningKey } from '../signing/certificate-crypto.ts';
import type { Database } from '../store/schema.ts';
import { createCosignatureRepository } from './cosignature.repository.ts';
import { appendKeyEntry, checkSignedByLiveKey, type KeyRecord } from './key-entries.ts';
import { type ConfiguredLogKey, readLogKey, seedOf } from './log-key.ts';
import { createOwnerEntries } from './owner-entries.ts';
import { createTileReader } from './tile-reader.ts';
import { createTransparencyLog } from './transparency-log.ts';

/** The job that hands a new checkpoint to the witnesses (src/log/witness-job.ts). */
export const WITNESS_JOB = 'log.witness';

/** A seal's witnessed checkpoint, as a certificate records it (CONTRACT §8 "Witnesses"). */
export interface SealWitness {
  checkpoint: string;
  index: number;
  proof: string[];
}

interface Deps {
  db: Kysely<Database>;
  /** Host and path of the public URL + `/log`: the checkpoints' first line and the key's name. */
  origin: string;
  /** Where witnessing is scheduled, in the append's transaction; none when no witness is configured. */
  jobs?: JobRepository;
  /** TYCHE_LOG_KEY_FILE's key: the store's log key must be this one, or nothing is signed. */
  configuredKey?: ConfiguredLogKey | undefined;
}

/**
 * The deployment's transparency log as the rest of the service uses it: appends of signed objects
 * and key entries inside the caller's transaction, checkpoints signed by the log key, the
 * cosignatures witnesses returned, and the witnessed checkpoint a certificate records for its seal.
 */
export function createLogService({ db, origin, jobs, configuredKey }: Deps) {
  const log = createTransparencyLog({ db });
  const cosignatures = createCosignatureRepository(db);
  const owners = createOwnerEntries(db);
  let key: Promise<SigningKey> | undefined;

  /** Read once, through whichever handle asks first (a transaction must not wait for the pool). */
  function logKey(handle: Kysely<Database> = db): Promise<SigningKey> {
    key ??= readLogKey(handle, configuredKey).catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  }

  async function scheduleWitnessing(trx: Kysely<Database>, size: number, at: number): Promise<void> {
    if (!jobs) return;
    await jobs.enqueue(
      { kind: WITNESS_JOB, key: `witness:${size}`, runAt: at, payload: { size }, createdAt: at },
      trx,
    );
  }

  async function logSignature(text: string): Promise<NoteSignature> {
    return noteSignature(text, origin, seedOf(await logKey()));
  }

  async function checkpointText(size: number): Promise<string> {
    return formatCheckpoint({ origin, size, root: await log.root(size) });
  }

  return {
    log,
    origin,
    /** The log as c2sp.org/tlog-tiles hash tiles and entry bundles (CONTRACT §16). */
    tiles: createTileReader({ db }),

    /** Appends a signed seal, certificate or result entry, as published, in the caller's transaction. */
    async appendSigned(
      trx: Kysely<Database>,
      kind: Exclude<LogEntryKind, 'key'>,
      id: string,
      signed: object,
      at: number,
    ) {
      const leafData = loggedLeafData(kind, signed);
      const appended = await log.append(trx, { kind, id, leafData, createdAt: at });
      await owners.record(trx, appended.index, kind, leafData);
      await checkSignedByLiveKey(trx, signed);
      await scheduleWitnessing(trx, appended.size, at);
      return appended.index;
    },

    /** Announces a new signing key (or retires one) in the transaction that stores the change. */
    async appendKey(trx: Kysely<Database>, record: KeyRecord, retired = false) {
      const appended = await appendKeyEntry(log, trx, await logKey(trx), record, retired);
      await scheduleWitnessing(
        trx,
        appended.size,
        retired ? (record.retired_at ?? Date.now()) : record.created_at,
      );
      return appended.index;
    },

    /** The log's note verifier key, `<origin>+<key id>+<base64(0x01 ‖ key)>`, and its kid. */
    async publicKey(): Promise<{ origin: string; key: string; kid: string }> {
      const k = await logKey();
      return { origin, key: verifierKey(origin, k.publicKeyRaw), kid: k.kid };
    },

    /** The newest checkpoint, signed by the log key, with the cosignatures witnesses gave that size. */
    async checkpoint(): Promise<{ size: number; note: string }> {
      const { size, root } = await log.head();
      const text = formatCheckpoint({ origin, size, root });
      const lines = await cosignatures.at(size);
      const signatures = [await logSignature(text), ...lines.map(parseSignatureLine)];
      return { size, note: formatNote(text, signatures) };
    },

    /** The checkpoint at `size`, signed by the log key alone (what witnesses are asked to cosign). */
    async signedCheckpoint(size: number): Promise<{ text: string; note: string }> {
      const text = await checkpointText(size);
      return { text, note: formatNote(text, [await logSignature(text)]) };
    },

    /** The first index of the entry about a seal or certificate, or null when it is not logged. */
    async indexOf(kind: LogEntryKind, id: string): Promise<number | null> {
      const [index] = await log.indicesOf(kind, id);
      return index ?? null;
    },

    /** The version of an owner's record (CONTRACT §14 "/o/{owner}"): their entries' count and newest index. */
    ownerVersion: owners.versionOf,

    /** Every seal, v2 certificate and amendment entry about an owner pseudonym, in log order. */
    ownerEntries: owners.entriesOf,

    /** Every entry about a signing key: its announcement, then its retirement if any. */
    keyIndices(kid: string): Promise<number[]> {
      return log.indicesOf('key', kid);
    },

    /** Stores a verified cosignature of the checkpoint at `size`. */
    async recordCosignature(size: number, signature: NoteSignature, line: string, cosignedAtMs: number) {
      await cosignatures.record(size, signature.name, line, cosignedAtMs);
    },

    /** The size a witness (by its key name) last said it holds of this log; 0 for one never asked. */
    witnessSize: (name: string): Promise<number> => cosignatures.sizeSeenBy(name),

    rememberWitnessSize: (name: string, size: number): Promise<void> => cosignatures.rememberSize(name, size),

    /**
     * The checkpoint that best witnesses the seal at `sealIndex` before `roundAt` (epoch ms): of
     * the cosigned sizes that include it, the one with the most cosignatures timed before the
     * round (the smallest on a tie), with those cosignatures and the seal's inclusion proof.
     */
    async sealWitness(sealIndex: number, roundAt: number): Promise<SealWitness | null> {
      const bySize = new Map<number, string[]>();
      for (const row of await cosignatures.coveringBefore(sealIndex, roundAt)) {
        bySize.set(row.size, [...(bySize.get(row.size) ?? []), row.line]);
      }
      let best: [number, string[]] | undefined;
      for (const entry of bySize) if (!best || entry[1].length > best[1].length) best = entry;
      if (!best) return null;
      const [size, lines] = best;
      const text = await checkpointText(size);
      const note = formatNote(text, [await logSignature(text), ...lines.map(parseSignatureLine)]);
      const proof = (await log.inclusionProof(sealIndex, size)).map(toHex);
      return { checkpoint: note, index: sealIndex, proof };
    },
  };
}

export type LogService = ReturnType<typeof createLogService>;
