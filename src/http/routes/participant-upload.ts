import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LISTED_LINES, type ParticipantBatch } from '../../giveaways/entrants/participants.ts';
import { AppError, type ErrorItem } from '../../shared/errors.ts';
import { unreadableEncoding } from '../body-encoding.ts';
import { type LineCode, type UploadFormat, type UploadRecord, uploadRecords } from './participant-records.ts';
import { MAX_UPLOAD_ROWS, UPLOAD_MIB } from './participants.schemas.ts';

const UPLOAD_BYTES = UPLOAD_MIB * 2 ** 20;
/** Participants per batch written: the JSON form's largest call. */
const BATCH_ROWS = 10_000;
const UPLOAD_MEDIA_TYPES: Record<string, UploadFormat> = {
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
};

/** Where a request's upload was written, in what format, and how many line ends it has. */
export interface Spool {
  path: string;
  format: UploadFormat;
  lineEnds: number;
}

const spools = new WeakMap<FastifyRequest, Spool>();

const tooLarge = () =>
  new AppError('payload_too_large', `A participants upload may be at most ${UPLOAD_MIB} MiB`);

/**
 * Writes the body to a file of its own (owner-only: it holds people's ids and names), counting
 * and hashing it on the way. The store is never held while a client is still sending: the
 * upload is read back at the disk's pace inside one transaction. The body the route sees is a
 * fingerprint of the bytes, so an Idempotency-Key compares uploads by their content.
 */
async function spool(request: FastifyRequest, payload: IncomingMessage): Promise<string> {
  const media = String(request.headers['content-type']).split(';')[0].trim().toLowerCase();
  const format = UPLOAD_MEDIA_TYPES[media];
  const unreadable = unreadableEncoding(request.headers, 'the upload');
  if (unreadable) throw new AppError('unsupported_media_type', unreadable);
  if (Number(request.headers['content-length']) > UPLOAD_BYTES) throw tooLarge();
  const path = join(tmpdir(), `tyche-upload-${randomBytes(12).toString('hex')}.${format}`);
  const spooled: Spool = { path, format, lineEnds: 0 };
  spools.set(request, spooled);
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      bytes += chunk.length;
      if (bytes > UPLOAD_BYTES) return next(tooLarge());
      hash.update(chunk);
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) spooled.lineEnds++;
      next(null, chunk);
    },
  });
  try {
    await pipeline(payload, meter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await discardUpload(request);
    throw error;
  }
  return `${media}; ${bytes} bytes; sha256 ${hash.digest('hex')}`;
}

/** Removes the request's spooled upload, if any: once it is stored, or when the request ends. */
export async function discardUpload(request: FastifyRequest): Promise<void> {
  const spooled = spools.get(request);
  if (!spooled) return;
  spools.delete(request);
  await rm(spooled.path, { force: true });
}

/**
 * CSV and NDJSON bodies for the routes of `scope` (one route: adding participants), written to
 * disk as they arrive instead of into memory, and removed once the request is answered.
 */
export function acceptUploads(scope: FastifyInstance): void {
  scope.addContentTypeParser(Object.keys(UPLOAD_MEDIA_TYPES), spool);
  scope.addContentTypeParser('*', async () => {
    const types = ['application/json', ...Object.keys(UPLOAD_MEDIA_TYPES)].join(', ');
    throw new AppError('unsupported_media_type', `Send participants as one of ${types}`);
  });
  // For the answers given before the route's handler ran (a replay, a refusal).
  scope.addHook('onResponse', discardUpload);
  scope.addHook('onRequestAbort', discardUpload);
}

/** The upload a request carried, if it carried one. */
export function spoolOf(request: FastifyRequest): Spool | undefined {
  return spools.get(request);
}

/** Which code answers a report: a type problem anywhere wins (CONTRACT §2), then these in turn. */
const PRECEDENCE: LineCode[] = ['invalid_type', 'invalid_json', 'missing_parameter', 'invalid_parameter'];

/**
 * What an upload's lines add up to: participants counted, the lines at fault counted and the
 * first LISTED_LINES of their problems named. `verdict` throws the report once every line was
 * seen: when any line is at fault, when there is no participant, or when there are too many.
 */
function uploadTally() {
  let rows = 0;
  let bad = 0;
  let problems = 0;
  const codes = new Set<LineCode>();
  const listed: ErrorItem[] = [];
  return {
    add(record: UploadRecord): void {
      if ('participant' in record) {
        rows++;
        return;
      }
      bad++;
      codes.add(record.code);
      problems += record.errors.length;
      for (const item of record.errors) if (listed.length < LISTED_LINES) listed.push(item);
    },
    /** Whatever comes next, the upload can no longer be stored. */
    get refused(): boolean {
      return bad > 0 || rows > MAX_UPLOAD_ROWS;
    },
    verdict(): void {
      if (bad > 0) {
        const code = PRECEDENCE.find((c) => codes.has(c)) ?? 'invalid_parameter';
        const lines = bad === 1 ? '1 line is' : `${bad.toLocaleString('en')} lines are`;
        const shown = listed.length < problems ? `; the first ${listed.length} problems are listed` : '';
        throw new AppError(code, `${lines} not valid, so nothing was added${shown}`, { errors: listed });
      }
      if (rows === 0) throw new AppError('invalid_parameter', 'The upload names no participant');
      if (rows > MAX_UPLOAD_ROWS) {
        throw new AppError(
          'invalid_parameter',
          `The upload names ${rows.toLocaleString('en')} participants; at most ${MAX_UPLOAD_ROWS.toLocaleString('en')} may be added at once`,
        );
      }
    },
  };
}

/** Reads the whole upload once and throws its report if it cannot be stored; nothing is stored. */
export async function checkUpload(spooled: Spool): Promise<void> {
  const tally = uploadTally();
  for await (const records of uploadRecords(spooled.path, spooled.format)) {
    for (const record of records) tally.add(record);
  }
  tally.verdict();
}

/**
 * Whether the upload may name more participants than one upload may add: each takes at least a
 * line, so one with no more lines than that cannot. Such an upload is checked whole before it is
 * stored, lest a million rows be stored only to be rolled back for the one too many.
 */
export function mayBeTooLong(spooled: Spool): boolean {
  return spooled.lineEnds + 1 > MAX_UPLOAD_ROWS;
}

/**
 * The upload's participants, BATCH_ROWS at a time, checked as they are read: one pass over the
 * file (a check pass before a store pass read and validated every line twice, about 1.5 s of
 * CPU per million each). Once a line is at fault, or there are too many, no more batches are
 * handed over; the rest is still read for the report, thrown at the end, so the transaction
 * the batches went into rolls back and nothing is stored. `finished` tells whether the pass
 * reached the end, i.e. whether its verdict was given.
 */
export function checkedBatches(spooled: Spool): {
  batches: AsyncGenerator<ParticipantBatch>;
  finished: () => boolean;
} {
  let finished = false;
  async function* batches(): AsyncGenerator<ParticipantBatch> {
    const tally = uploadTally();
    let batch: ParticipantBatch = { participants: [], lines: [] };
    for await (const records of uploadRecords(spooled.path, spooled.format)) {
      for (const record of records) {
        tally.add(record);
        if (tally.refused || !('participant' in record)) continue;
        batch.participants.push(record.participant);
        batch.lines.push(record.line);
        if (batch.participants.length === BATCH_ROWS) {
          yield batch;
          batch = { participants: [], lines: [] };
        }
      }
    }
    finished = true;
    tally.verdict();
    if (batch.participants.length > 0) yield batch;
  }
  return { batches: batches(), finished: () => finished };
}
