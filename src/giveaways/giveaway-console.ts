import type { OperationContext } from '../randomness/random.service.ts';
import { AppError } from '../shared/errors.ts';
import type { Standing } from './amendments/winner-standing.ts';
import type { ConditionRepository } from './conditions/condition.repository.ts';
import type { ConditionChecks, MembershipCheck } from './conditions/condition-check.ts';
import type { GiveawayRepository, GiveawayRow } from './core/giveaway.repository.ts';
import type { SealRepository } from './core/seal.repository.ts';
import { type EntrantReceipts, entrantReceiptUrl } from './entrants/entrant-receipts.ts';
import type { Entry, EntryRepository } from './entrants/entry.repository.ts';
import type { ParticipantRepository } from './entrants/participant.repository.ts';
import { closed, type GiveawayLookup } from './giveaway-lookup.ts';
import { verifyUrlOf } from './results/giveaway.views.ts';
import type { Sealer } from './seal/giveaway-seal.ts';

/** What `/draw` did: sealed now, sealing after the channel checks, or already past that. */
export type CloseOutcome =
  | { kind: 'sealed'; title: string; count: number; round: number; roundAt: number }
  | { kind: 'checking'; title: string }
  | { kind: 'drawn'; title: string; verifyUrl: string };

interface Deps {
  publicBaseUrl: string;
  giveaways: Pick<GiveawayRepository, 'findById' | 'findByPublicId'>;
  participants: Pick<ParticipantRepository, 'entrantById'>;
  entries: EntryRepository;
  seals: Pick<SealRepository, 'find'>;
  conditions: Pick<ConditionRepository, 'excludedCounts'>;
  checks: ConditionChecks;
  receipts: Pick<EntrantReceipts, 'proofOf'>;
  /** The service's lookups, with their refusals (404, 403), so bot and API refuse alike. */
  lookup: Pick<GiveawayLookup, 'find' | 'owned'>;
  /** Draws an instant giveaway now. */
  drawInstant(ctx: OperationContext, row: GiveawayRow): Promise<{ certificate: { certificate_id: string } }>;
  seal: Sealer;
  /** Closes entries (active → sealing) when the channel checks must run before the seal. */
  beginSeal(row: GiveawayRow): Promise<GiveawayRow>;
  /** The winners of a drawn giveaway as they stand now, amendments and claims applied. */
  standing(row: GiveawayRow): Promise<Standing>;
}

/**
 * The giveaway service's side for the Telegram bot (CONTRACT §11): the join gate, `/draw`,
 * `/my`, receipts after the seal and what channel posts read. The rules (ownership, status,
 * conditions) are the service's own, passed in, so bot and API refuse alike.
 */
export function createGiveawayConsole(deps: Deps) {
  const { giveaways, seals, participants, conditions, checks, publicBaseUrl } = deps;

  return {
    /** What a join through the bot asks first: whether the giveaway is open and wants a challenge. */
    async gate(publicId: string) {
      const row = await deps.lookup.find(publicId);
      if (row.status !== 'active') throw closed(row.status);
      return { title: row.title, challenge: Number(row.join_challenge) === 1 };
    },

    /**
     * The bot's `/draw`: seals the owner's giveaway now (the draw follows at its committed round,
     * by the draw job), or, when channel conditions must be checked first, closes entries and
     * leaves the seal to the seal job (also when it is sealing already). An instant giveaway is
     * drawn at once.
     */
    async closeNow(ctx: OperationContext, publicId: string): Promise<CloseOutcome> {
      const row = await deps.lookup.owned(ctx.accountId, publicId);
      const title = row.title;
      if (row.status === 'completed' && row.certificate_id) {
        return { kind: 'drawn', title, verifyUrl: verifyUrlOf(publicBaseUrl, row.certificate_id) };
      }
      if (row.draw_mode !== 'verifiable') {
        const { certificate } = await deps.drawInstant(ctx, row);
        return { kind: 'drawn', title, verifyUrl: verifyUrlOf(publicBaseUrl, certificate.certificate_id) };
      }
      if (row.status === 'active' && Number(row.participants_count) === 0) {
        throw new AppError('no_participants', 'A giveaway without entrants cannot be sealed');
      }
      const current = await deps.beginSeal(row);
      if (current.status === 'sealing') return { kind: 'checking', title };
      const seal =
        current.status === 'active'
          ? await deps.seal(current, ctx).then(
              (sealed) => sealed.seal,
              async (error) => {
                if (error instanceof AppError && error.code === 'giveaway_sealed') return seals.find(row.id);
                throw error;
              },
            )
          : await seals.find(row.id);
      if (!seal) throw new AppError('not_found', 'The seal of this giveaway is missing');
      return {
        kind: 'sealed',
        title,
        count: Number(seal.entrants_count),
        round: Number(seal.round),
        roundAt: Number(seal.round_at),
      };
    },

    /** A Telegram user's latest entries (the bot's `/my`), with receipt links. */
    async entriesOf(
      telegramId: number,
      limit: number,
    ): Promise<(Entry & { receipt_url: string | null; verify_url: string | null })[]> {
      const entries = await deps.entries.latestOf(telegramId, limit);
      return entries.map((e) => ({
        ...e,
        receipt_url: e.salt ? entrantReceiptUrl(publicBaseUrl, e.public_id, telegramId, e.salt) : null,
        verify_url: e.certificate_id === null ? null : verifyUrlOf(publicBaseUrl, e.certificate_id),
      }));
    },

    /**
     * The Mini App's entries: the winner position `telegramId` holds now in a drawn giveaway, with
     * their claim and deadline; undefined when they hold none (or it is not drawn, or not found).
     */
    async winnerStandingOf(publicId: string, telegramId: number) {
      const row = await giveaways.findByPublicId(publicId);
      if (row?.status !== 'completed') return undefined;
      return (await deps.standing(row)).winners.find((w) => w.telegram_id === telegramId);
    },

    /** What an entrant's receipt message says after the seal; undefined when not in the sealed list. */
    async sealedEntry(giveawayId: number, telegramId: number) {
      const row = await giveaways.findById(giveawayId);
      const seal = row ? await seals.find(giveawayId) : undefined;
      const entrant = seal ? await participants.entrantById(giveawayId, telegramId) : undefined;
      if (!row || !seal || !entrant) return undefined;
      const proof = await deps.receipts.proofOf(row, entrant.leaf_hash);
      if (!proof || proof === 'not_sealed') return undefined;
      return {
        title: row.title,
        publicId: row.public_id,
        index: proof.index,
        count: proof.count,
        round: Number(seal.round),
        roundAt: Number(seal.round_at),
        receiptUrl: entrantReceiptUrl(publicBaseUrl, row.public_id, telegramId, entrant.salt),
      };
    },

    /** A giveaway by its row id or public id, with its seal when sealed: for the bot's background work. */
    async byId(id: number | string) {
      const row = typeof id === 'number' ? await giveaways.findById(id) : await giveaways.findByPublicId(id);
      if (!row) return undefined;
      const seal = row.status === 'active' ? undefined : await seals.find(row.id);
      return { row, seal, excluded: await conditions.excludedCounts(row.id) };
    },

    /** Set by the bot when it runs: how channel memberships are checked (getChatMember). */
    setMembership(check: MembershipCheck | undefined): void {
      checks.setMembership(check);
    },
  };
}
