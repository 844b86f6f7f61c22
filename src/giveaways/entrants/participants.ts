import { hash, randomBytes } from 'node:crypto';
import { ENTRANT_DOMAIN, LEAF_DATA_BYTES, SALT_BYTES } from '../../proof/entrant-leaf.ts';
import type { Clock } from '../../shared/clock.ts';
import type { UnitOfWork } from '../../store/unit-of-work.ts';
import type { GiveawayRepository, GiveawayRow } from '../core/giveaway.repository.ts';
import type { GiveawayPromises } from '../core/giveaway-promises.ts';
import type { ParticipantRepository, ParticipantRow } from './participant.repository.ts';

export interface ParticipantInput {
  telegram_id: number;
  username?: string | undefined;
  first_name?: string | undefined;
}

export interface Added {
  added: number;
  duplicates: number;
  participantsCount: number;
  /** The entry number of each input, in input order: the first one for a repeated id. */
  entryNumbers: number[];
}

/** Participants in the order given, each with the line of the upload it came from. */
export interface ParticipantBatch {
  participants: ParticipantInput[];
  lines: number[];
}

export interface Uploaded {
  added: number;
  duplicates: number;
  participantsCount: number;
  /** The lines of the first LISTED_LINES duplicates, in upload order. */
  duplicateLines: number[];
}

/** Lines named in an upload's report; the counts cover all of them. */
export const LISTED_LINES = 100;

/** Telegram shows usernames with an `@` that is not part of them; an empty one is none. */
export function normalizeUsername(username: string | undefined): string | null {
  if (username === undefined) return null;
  const name = username.startsWith('@') ? username.slice(1) : username;
  return name === '' ? null : name;
}

/**
 * What a leaf hash is taken over (CONTRACT §7.1, as entrantLeafHash builds it): 0x00 ‖
 * "tyche-entrant-v2" ‖ 0x00 ‖ salt ‖ uint64_be(telegram_id). One buffer, refilled per entrant:
 * the hash reads it at once. Building the bytes and the hex by hand (a BigInt, three arrays, hex
 * joined a digit at a time into strings flattened again when bound) cost about 3 µs of CPU an
 * entrant; the one-shot hash asked for hex, and the salt's hex from its buffer, about 0.4 µs.
 */
const leafInput = Buffer.alloc(1 + LEAF_DATA_BYTES);
leafInput.write(ENTRANT_DOMAIN, 1, 'latin1');
const SALT_AT = 1 + ENTRANT_DOMAIN.length + 1;
const ID_AT = SALT_AT + SALT_BYTES;

/** The salt at `at` in `salts` and the leaf it makes for `telegramId`, both as lowercase hex. */
function leafOf(salts: Buffer, at: number, telegramId: number): { salt: string; leaf_hash: string } {
  if (!Number.isInteger(telegramId) || telegramId < 1 || telegramId >= 2 ** 64)
    throw new RangeError(`telegram_id ${telegramId} is not a positive 64-bit integer`);
  salts.copy(leafInput, SALT_AT, at, at + SALT_BYTES);
  // Both halves are exact for any integer below 2^64: dividing by a power of two loses nothing.
  leafInput.writeUInt32BE(Math.floor(telegramId / 2 ** 32), ID_AT);
  leafInput.writeUInt32BE(telegramId % 2 ** 32, ID_AT + 4);
  return {
    salt: salts.toString('hex', at, at + SALT_BYTES),
    leaf_hash: hash('sha256', leafInput, 'hex'),
  };
}

/** CONTRACT §7.1: a fresh 16-byte salt from the CSPRNG, fixed at entry, and the leaf it makes. */
export function newEntrantLeaf(telegramId: number): { salt: string; leaf_hash: string } {
  return leafOf(randomBytes(SALT_BYTES), 0, telegramId);
}

/** What an entry writes, bound to its transaction. */
export interface EntryWrites {
  giveaways: Pick<GiveawayRepository, 'lockActive' | 'setParticipantsCount'>;
  participants: Pick<ParticipantRepository, 'entryNumbers' | 'insertMany'>;
  /** One participant.joined per new entrant, and the bot's channel post count when it runs. */
  promises: Pick<GiveawayPromises, 'joined'>;
}

/**
 * One batch, under the giveaway's row lock: new ids numbered after `count` in input order, each
 * with its salt and leaf (the salts drawn from the CSPRNG in one call for the whole batch). An id
 * already joined, by an earlier batch of the same transaction too, keeps its number.
 */
async function addBatch(
  writes: EntryWrites,
  giveaway: GiveawayRow,
  count: number,
  list: readonly ParticipantInput[],
  joinedAt: number,
) {
  const entries = await writes.participants.entryNumbers(
    giveaway.id,
    list.map((p) => p.telegram_id),
  );
  const salts = randomBytes(SALT_BYTES * list.length);
  const fresh: ParticipantRow[] = [];
  /** Where in `list` the ids already joined, or repeated, are. */
  const duplicates: number[] = [];
  let last = count;
  const entryNumbers = list.map((p, i) => {
    const known = entries.get(p.telegram_id);
    if (known !== undefined) {
      duplicates.push(i);
      return known;
    }
    last += 1;
    entries.set(p.telegram_id, last);
    fresh.push({
      giveaway_id: giveaway.id,
      telegram_id: p.telegram_id,
      entry_number: last,
      username: normalizeUsername(p.username),
      first_name: p.first_name ?? null,
      joined_at: joinedAt,
      ...leafOf(salts, i * SALT_BYTES, p.telegram_id),
    });
    return last;
  });
  if (fresh.length > 0) {
    await writes.participants.insertMany(fresh);
    await writes.promises.joined({ ...giveaway, participants_count: last }, fresh);
  }
  return { last, entryNumbers, duplicates };
}

/**
 * Adds participants idempotently per telegram_id, numbering new ones in join order. Runs under
 * the giveaway's row lock, so concurrent adds are serialized (entry numbers have no gaps or
 * repeats) and none can slip in after a draw has locked the row. Undefined once completed.
 */
export async function addParticipants(
  deps: { uow: UnitOfWork<EntryWrites>; clock: Clock },
  giveaway: GiveawayRow,
  list: ParticipantInput[],
): Promise<Added | undefined> {
  return deps.uow.run(async (writes) => {
    const count = await writes.giveaways.lockActive(giveaway.id);
    if (count === undefined) return undefined;
    const batch = await addBatch(writes, giveaway, count, list, deps.clock.now().getTime());
    if (batch.last > count) await writes.giveaways.setParticipantsCount(giveaway.id, batch.last);
    return {
      added: batch.last - count,
      duplicates: batch.duplicates.length,
      participantsCount: batch.last,
      entryNumbers: batch.entryNumbers,
    };
  });
}

/**
 * An upload: every batch in one transaction under the row lock, so it is stored whole or not at
 * all, and holds one batch at a time, whatever its length. Every entrant of it joins at the same
 * instant; duplicates are named by their line. Undefined once completed.
 */
export async function addParticipantBatches(
  deps: { uow: UnitOfWork<EntryWrites>; clock: Clock },
  giveaway: GiveawayRow,
  batches: AsyncIterable<ParticipantBatch>,
): Promise<Uploaded | undefined> {
  return deps.uow.run(async (writes) => {
    const count = await writes.giveaways.lockActive(giveaway.id);
    if (count === undefined) return undefined;
    const joinedAt = deps.clock.now().getTime();
    const uploaded: Uploaded = { added: 0, duplicates: 0, participantsCount: count, duplicateLines: [] };
    for await (const { participants, lines } of batches) {
      const batch = await addBatch(writes, giveaway, uploaded.participantsCount, participants, joinedAt);
      uploaded.added += batch.last - uploaded.participantsCount;
      uploaded.participantsCount = batch.last;
      uploaded.duplicates += batch.duplicates.length;
      for (const at of batch.duplicates.slice(0, LISTED_LINES - uploaded.duplicateLines.length)) {
        uploaded.duplicateLines.push(lines[at]);
      }
    }
    if (uploaded.added > 0)
      await writes.giveaways.setParticipantsCount(giveaway.id, uploaded.participantsCount);
    return uploaded;
  });
}
