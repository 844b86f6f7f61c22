import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../store/unit-of-work.ts';
import { type ConditionChecks, ConditionNotMet } from './conditions/condition-check.ts';
import type { GiveawayRepository, GiveawayRow } from './core/giveaway.repository.ts';
import { entrantReceiptUrl } from './entrants/entrant-receipts.ts';
import type { ParticipantRepository } from './entrants/participant.repository.ts';
import {
  addParticipantBatches,
  addParticipants,
  type EntryWrites,
  type ParticipantBatch,
  type ParticipantInput,
} from './entrants/participants.ts';
import { closed, type GiveawayLookup } from './giveaway-lookup.ts';

export interface JoinResult {
  status: 'joined' | 'duplicate';
  entryNumber: number;
  giveaway: { public_id: string; title: string };
  /** The entrant's receipt page (CONTRACT §7.8), with their id and salt in the fragment. */
  receiptUrl?: string | undefined;
}

/** Entries into a giveaway: the API's list of participants and the bot's one join at a time. */
export function createGiveawayEntry(deps: {
  uow: UnitOfWork<EntryWrites>;
  clock: Clock;
  giveaways: Pick<GiveawayRepository, 'findById'>;
  participants: Pick<ParticipantRepository, 'entrantById'>;
  checks: Pick<ConditionChecks, 'unmetAtJoin'>;
  lookup: Pick<GiveawayLookup, 'find' | 'owned'>;
  publicBaseUrl: string;
}) {
  const { giveaways, participants, checks, lookup } = deps;

  /** Entries into an active giveaway, refused with the right code once it is sealed or drawn. */
  async function enter(row: GiveawayRow, list: ParticipantInput[]) {
    if (row.status !== 'active') throw closed(row.status);
    const added = await addParticipants(deps, row, list);
    // Closed meanwhile: read again to tell sealed from drawn.
    if (!added) throw closed((await giveaways.findById(row.id))?.status);
    return added;
  }

  return {
    async addParticipants(accountId: string, publicId: string, list: ParticipantInput[]) {
      const added = await enter(await lookup.owned(accountId, publicId), list);
      return {
        added: added.added,
        duplicates: added.duplicates,
        participants_count: added.participantsCount,
      };
    },

    /**
     * An upload of any length, stored whole or not at all (see addParticipantBatches): the
     * batches are read while the giveaway's row is locked, so they must come from something at
     * hand (a file), never from a client still sending.
     */
    async uploadParticipants(accountId: string, publicId: string, batches: AsyncIterable<ParticipantBatch>) {
      const row = await lookup.owned(accountId, publicId);
      if (row.status !== 'active') throw closed(row.status);
      const uploaded = await addParticipantBatches(deps, row, batches);
      if (!uploaded) throw closed((await giveaways.findById(row.id))?.status);
      return {
        added: uploaded.added,
        duplicates: uploaded.duplicates,
        participants_count: uploaded.participantsCount,
        duplicate_lines: uploaded.duplicateLines,
      };
    },

    /**
     * The bot's join: stored (and committed) before this resolves, so a failed reply loses
     * nothing. A giveaway's channel conditions are checked first; a join that does not meet
     * them stores nothing and throws ConditionNotMet.
     */
    async join(publicId: string, participant: ParticipantInput): Promise<JoinResult> {
      const id = participant.telegram_id;
      if (!Number.isSafeInteger(id) || id < 1) {
        throw new AppError('invalid_parameter', `telegram_id must be a positive integer, got ${id}`, {
          errors: [{ parameter: 'telegram_id', message: 'must be a positive integer' }],
        });
      }
      const row = await lookup.find(publicId);
      if (row.status !== 'active') throw closed(row.status);
      const unmet = await checks.unmetAtJoin(row.id, id);
      if (unmet) throw new ConditionNotMet(unmet, { public_id: row.public_id, title: row.title });
      const added = await enter(row, [participant]);
      const entrant = await participants.entrantById(row.id, id);
      return {
        status: added.added === 1 ? 'joined' : 'duplicate',
        entryNumber: added.entryNumbers[0],
        giveaway: { public_id: row.public_id, title: row.title },
        receiptUrl: entrant
          ? entrantReceiptUrl(deps.publicBaseUrl, row.public_id, id, entrant.salt)
          : undefined,
      };
    },
  };
}
