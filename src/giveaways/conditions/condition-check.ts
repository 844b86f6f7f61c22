import type { Clock } from '../../shared/clock.ts';
import { type ChannelCondition, type ConditionRepository, LEFT_CHANNEL } from './condition.repository.ts';

/**
 * Whether a Telegram user is a member of a channel now. Throws when it cannot be told (Telegram
 * unreachable): the caller tries again later rather than exclude anyone on a guess.
 */
export type MembershipCheck = (chatId: number, telegramId: number) => Promise<boolean>;

/** A join refused because the user is not in a channel the giveaway requires; nothing was stored. */
export class ConditionNotMet extends Error {
  override name = 'ConditionNotMet';
  readonly channel: ChannelCondition;
  readonly giveaway: { public_id: string; title: string };
  constructor(channel: ChannelCondition, giveaway: { public_id: string; title: string }) {
    super(`not a member of ${channel.label}`);
    this.channel = channel;
    this.giveaway = giveaway;
  }
}

export interface ConditionCheckLog {
  warn(obj: object, msg: string): void;
}

/** Entrants read per page of the re-check; each page's checks run together. */
const PAGE = 50;
/** How long one run of the seal job re-checks before it yields (and records its progress). */
const RUN_BUDGET_MS = 10_000;

/**
 * The channel conditions of a giveaway (CONTRACT §11): checked when someone joins, and again
 * for every entrant before the seal, page by page, with the progress stored so a pass over
 * tens of thousands of entrants resumes where it was after a restart. The checks themselves
 * come from the bot (getChatMember); rate limits are the caller of `membership`'s concern.
 */
export function createConditionChecks(deps: {
  conditions: ConditionRepository;
  clock: Clock;
  log: ConditionCheckLog;
  budgetMs?: number;
}) {
  const { conditions, clock } = deps;
  const budgetMs = deps.budgetMs ?? RUN_BUDGET_MS;
  let membership: MembershipCheck | undefined;

  async function firstUnmet(
    list: readonly ChannelCondition[],
    telegramId: number,
    check: MembershipCheck,
  ): Promise<ChannelCondition | undefined> {
    for (const condition of list) {
      if (!(await check(condition.chat_id, telegramId))) return condition;
    }
    return undefined;
  }

  return {
    /** Set by the bot once it runs: without it, conditions cannot be checked. */
    setMembership(check: MembershipCheck | undefined): void {
      membership = check;
    },

    /** The first channel this user is not a member of, or undefined when they meet every condition. */
    async unmetAtJoin(giveawayId: number, telegramId: number): Promise<ChannelCondition | undefined> {
      const list = await conditions.of(giveawayId);
      if (list.length === 0 || !membership) return undefined;
      const unmet = await firstUnmet(list, telegramId, membership);
      // Back in the channel before the seal: an earlier pass's finding no longer holds.
      if (!unmet) await conditions.clearFailure(giveawayId, telegramId);
      return unmet;
    },

    /** Whether the seal must wait for a re-check pass that has not finished. */
    async pending(giveawayId: number): Promise<boolean> {
      if (!membership || (await conditions.of(giveawayId)).length === 0) return false;
      return !(await conditions.progress(giveawayId))?.finished;
    },

    /**
     * Re-checks entrants from where the pass stopped, for up to the run's budget. `done` when
     * every entrant has been checked (or there is nothing to check), `more` when it yielded.
     */
    async recheck(giveawayId: number, publicId: string): Promise<'done' | 'more'> {
      const list = await conditions.of(giveawayId);
      const check = membership;
      if (list.length === 0) return 'done';
      if (!check) {
        deps.log.warn(
          { public_id: publicId },
          'channel conditions not re-checked before the seal: the Telegram bot is not running',
        );
        return 'done';
      }
      const progress = await conditions.progress(giveawayId);
      if (progress?.finished) return 'done';
      let after = progress?.afterEntry ?? 0;
      const until = performance.now() + budgetMs;
      for (;;) {
        const page = await conditions.entrantsAfter(giveawayId, after, PAGE);
        const now = clock.now().getTime();
        if (page.length === 0) {
          await conditions.saveProgress(giveawayId, after, now, true);
          return 'done';
        }
        const unmet = await Promise.all(page.map((e) => firstUnmet(list, e.telegramId, check)));
        const gone = page.filter((_, i) => unmet[i] !== undefined).map((e) => e.telegramId);
        await conditions.markFailed(giveawayId, gone, LEFT_CHANNEL, now);
        after = page[page.length - 1].entryNumber;
        await conditions.saveProgress(giveawayId, after, now, false);
        if (performance.now() >= until) return 'more';
      }
    },
  };
}

export type ConditionChecks = ReturnType<typeof createConditionChecks>;
