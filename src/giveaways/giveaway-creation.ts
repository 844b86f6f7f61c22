import { termsSha256 } from '../proof/terms.ts';
import type { Clock } from '../shared/clock.ts';
import type { ChannelCondition } from './conditions/condition.repository.ts';
import type { GiveawayRow } from './core/giveaway.repository.ts';
import { checkNewGiveaway, type NewGiveawayInput } from './core/giveaway-input.ts';
import type { ChannelPostRequest } from './core/giveaway-promises.ts';
import { newPublicId } from './core/ids.ts';
import { sha256 } from './draw/certificate.ts';
import type { GiveawayUnitOfWork } from './giveaway-store.ts';
import type { Giveaway } from './results/giveaway.views.ts';
import { sealJob } from './seal/giveaway-seal.ts';

/** What a giveaway created from the bot carries beyond the API's fields (CONTRACT §11). */
export interface BotGiveawayOptions {
  conditions: ChannelCondition[];
  joinChallenge: boolean;
  /** The channel the giveaway's post (with its Join button) goes to, and the post's language. */
  post: ChannelPostRequest;
}

/**
 * A new giveaway, with everything it promises committed in the same transaction: its terms (and
 * their hash, which its seal will commit to), its channel conditions and post (from the bot) and,
 * with `ends_at`, its seal, kept by the jobs table.
 */
export function createGiveawayCreation(deps: {
  uow: GiveawayUnitOfWork;
  clock: Clock;
  view(row: GiveawayRow): Promise<Giveaway>;
}) {
  const { uow, clock } = deps;

  return async function create(
    accountId: string,
    input: NewGiveawayInput,
    bot?: BotGiveawayOptions,
  ): Promise<Giveaway> {
    const now = clock.now().getTime();
    const checked = checkNewGiveaway(input, now);
    const row = await uow.run(async (trx) => {
      const inserted = await trx.giveaways.insert({
        public_id: newPublicId(),
        account_id: accountId,
        title: checked.title,
        description: checked.description,
        winners_count: checked.winnersCount,
        reserve_count: checked.reserveCount,
        draw_mode: checked.drawMode,
        ends_at: checked.endsAt,
        status: 'active',
        created_at: now,
        drawn_at: null,
        certificate_id: null,
        sealed_at: null,
        join_challenge: bot?.joinChallenge ? 1 : 0,
        claim_within: checked.claimWithinMs,
        // The seal commits to this hash; the text beside it is written once, here, and never changed.
        terms_sha256: checked.terms === null ? null : termsSha256(checked.terms, sha256),
      });
      if (checked.terms !== null) await trx.terms.insert(inserted.id, checked.terms);
      if (bot) await trx.conditions.insert(inserted.id, bot.conditions);
      await trx.promises.created(inserted, bot?.post);
      if (checked.endsAt !== null) await trx.jobs.enqueue(sealJob(inserted, checked.endsAt));
      return inserted;
    });
    return deps.view(row);
  };
}
