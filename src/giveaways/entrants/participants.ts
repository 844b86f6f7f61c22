import { randomBytes } from 'node:crypto';
import { toHex } from '../../proof/draw-v1.ts';
import { entrantLeafHash, SALT_BYTES } from '../../proof/entrant-leaf.ts';
import type { Clock } from '../../shared/clock.ts';
import type { UnitOfWork } from '../../store/unit-of-work.ts';
import type { GiveawayRepository, GiveawayRow } from '../core/giveaway.repository.ts';
import type { GiveawayPromises } from '../core/giveaway-promises.ts';
import { fastSha256 } from './entrant-tree.ts';
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

function leafOf(salt: Uint8Array, telegramId: number): { salt: string; leaf_hash: string } {
  return { salt: toHex(salt), leaf_hash: toHex(entrantLeafHash(salt, telegramId, fastSha256)) };
}

/** CONTRACT §7.1: a fresh 16-byte salt from the CSPRNG, fixed at entry, and the leaf it makes. */
export function newEntrantLeaf(telegramId: number): { salt: string; leaf_hash: string } {
  return leafOf(randomBytes(SALT_BYTES), telegramId);
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
      ...leafOf(salts.subarray(i * SALT_BYTES, (i + 1) * SALT_BYTES), p.telegram_id),
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
