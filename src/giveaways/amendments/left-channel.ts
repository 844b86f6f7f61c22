import { AppError } from '../../shared/errors.ts';
import type { MembershipCheck } from '../conditions/condition-check.ts';
import type { GiveawayRow } from '../core/giveaway.repository.ts';

/** Throws unless the winner has in fact left a channel of the giveaway (CONTRACT §14 `left_channel`). */
export type LeftChannelCheck = (
  row: GiveawayRow,
  winner: { position: number; telegram_id: number },
) => Promise<void>;

/** How long a caller waits before asking again when Telegram could not be asked. */
const TELEGRAM_RETRY_AFTER_SECONDS = 5;

/**
 * `left_channel` is not taken on the owner's word: the service asks Telegram (getChatMember,
 * through the bot) whether the winner is still a member of the channels the giveaway requires —
 * or, when it requires none, of the channel the bot posted it in. The winner left when they are
 * missing from at least one; still a member of all is 409 `condition_met`.
 */
export function createLeftChannelCheck(deps: {
  /** The required channels, else the channel the giveaway was posted in; empty when neither. */
  channelsOf(giveawayId: number): Promise<{ chat_id: number; label: string }[]>;
  /** Set while the bot runs. */
  membership(): MembershipCheck | undefined;
}): LeftChannelCheck {
  return async (row, winner) => {
    const channels = await deps.channelsOf(row.id);
    if (channels.length === 0) {
      throw new AppError(
        'invalid_parameter',
        'reason left_channel needs a channel to check: this giveaway requires none and was not posted in one by the bot',
        { errors: [{ parameter: 'reason', message: 'left_channel applies to a giveaway with a channel' }] },
      );
    }
    const check = deps.membership();
    const unavailable = (why: string, cause?: unknown) =>
      new AppError('telegram_unavailable', `Cannot check the channel membership now: ${why}`, {
        retryAfterSeconds: TELEGRAM_RETRY_AFTER_SECONDS,
        cause,
      });
    if (!check) throw unavailable('the Telegram bot is not running');
    for (const channel of channels) {
      let member: boolean;
      try {
        member = await check(Number(channel.chat_id), winner.telegram_id);
      } catch (error) {
        throw unavailable('Telegram did not answer', error);
      }
      if (!member) return;
    }
    throw new AppError(
      'condition_met',
      `The winner at position ${winner.position} is still a member of ${channels.map((c) => c.label).join(', ')}, as Telegram says now`,
    );
  };
}
