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

/** Telegram shows usernames with an `@` that is not part of them; an empty one is none. */
export function normalizeUsername(username: string | undefined): string | null {
  if (username === undefined) return null;
  const name = username.startsWith('@') ? username.slice(1) : username;
  return name === '' ? null : name;
}

/** CONTRACT §7.1: a fresh 16-byte salt from the CSPRNG, fixed at entry, and the leaf it makes. */
export function newEntrantLeaf(telegramId: number): { salt: string; leaf_hash: string } {
  const salt = randomBytes(SALT_BYTES);
  return { salt: salt.toString('hex'), leaf_hash: toHex(entrantLeafHash(salt, telegramId, fastSha256)) };
}

/** What an entry writes, bound to its transaction. */
export interface EntryWrites {
  giveaways: Pick<GiveawayRepository, 'lockActive' | 'setParticipantsCount'>;
  participants: Pick<ParticipantRepository, 'entryNumbers' | 'insertMany'>;
  /** One participant.joined per new entrant, and the bot's channel post count when it runs. */
  promises: Pick<GiveawayPromises, 'joined'>;
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
  return deps.uow.run(async ({ giveaways, participants, promises }) => {
    const count = await giveaways.lockActive(giveaway.id);
    if (count === undefined) return undefined;
    const ids = [...new Set(list.map((p) => p.telegram_id))];
    const entries = await participants.entryNumbers(giveaway.id, ids);
    const joinedAt = deps.clock.now().getTime();
    const fresh: ParticipantRow[] = [];
    let last = count;
    const entryNumbers = list.map((p) => {
      const known = entries.get(p.telegram_id);
      if (known !== undefined) return known;
      last += 1;
      entries.set(p.telegram_id, last);
      fresh.push({
        giveaway_id: giveaway.id,
        telegram_id: p.telegram_id,
        entry_number: last,
        username: normalizeUsername(p.username),
        first_name: p.first_name ?? null,
        joined_at: joinedAt,
        ...newEntrantLeaf(p.telegram_id),
      });
      return last;
    });
    if (fresh.length > 0) {
      await participants.insertMany(fresh);
      await giveaways.setParticipantsCount(giveaway.id, last);
      await promises.joined({ ...giveaway, participants_count: last }, fresh);
    }
    return {
      added: fresh.length,
      duplicates: list.length - fresh.length,
      participantsCount: last,
      entryNumbers,
    };
  });
}
