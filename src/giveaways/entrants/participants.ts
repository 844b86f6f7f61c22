import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { toHex } from '../../proof/draw-v1.ts';
import { entrantLeafHash, SALT_BYTES } from '../../proof/entrant-leaf.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Database } from '../../store/schema.ts';
import { sha256 } from '../draw/certificate.ts';
import type { GiveawayRepository, GiveawayRow } from '../giveaway.repository.ts';
import type { GiveawayEvents } from '../giveaway-events.ts';
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
  return { salt: salt.toString('hex'), leaf_hash: toHex(entrantLeafHash(salt, telegramId, sha256)) };
}

/**
 * Adds participants idempotently per telegram_id, numbering new ones in join order. Runs under
 * the giveaway's row lock, so concurrent adds are serialized (entry numbers have no gaps or
 * repeats) and none can slip in after a draw has locked the row. Undefined once completed.
 */
export async function addParticipants(
  deps: {
    db: Kysely<Database>;
    giveaways: GiveawayRepository;
    participants: ParticipantRepository;
    clock: Clock;
    /** The webhook events of the transaction: one participant.joined per new entrant. */
    eventsIn: (trx: Kysely<Database>) => Pick<GiveawayEvents, 'joined'>;
  },
  giveaway: GiveawayRow,
  list: ParticipantInput[],
): Promise<Added | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const count = await deps.giveaways.lockActive(giveaway.id, trx);
    if (count === undefined) return undefined;
    const ids = [...new Set(list.map((p) => p.telegram_id))];
    const entries = await deps.participants.entryNumbers(giveaway.id, ids, trx);
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
      await deps.participants.insertMany(fresh, trx);
      await deps.giveaways.setParticipantsCount(giveaway.id, last, trx);
      await deps.eventsIn(trx).joined({ ...giveaway, participants_count: last }, fresh);
    }
    return {
      added: fresh.length,
      duplicates: list.length - fresh.length,
      participantsCount: last,
      entryNumbers,
    };
  });
}
