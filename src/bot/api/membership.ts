import type { Api } from 'grammy';
import type { BotLogger } from '../bot-logger.ts';
import type { MembershipCheck } from '../giveaway-port.ts';
import { classifyTelegramError } from '../telegram-errors.ts';

const MEMBER_STATUSES = new Set(['member', 'administrator', 'creator']);
/** Telegram's answers about a user it does not know in that chat: not a member. */
const UNKNOWN_USER = /user not found|participant_id_invalid|user_id_invalid/i;

/**
 * CONTRACT §11: a member is `member`, `administrator`, `creator`, or `restricted` with
 * `is_member`. A chat the bot can no longer ask about (removed as admin, channel deleted) does
 * not exclude anyone: the condition is logged as unchecked and the entrant kept, since only the
 * entrant's own leaving may cost them their entry. Anything transient is thrown, for a retry.
 */
export function membershipCheck(api: Pick<Api, 'getChatMember'>, log: BotLogger): MembershipCheck {
  return async (chatId, telegramId) => {
    try {
      const member = await api.getChatMember(chatId, telegramId);
      if (member.status === 'restricted') return member.is_member;
      return MEMBER_STATUSES.has(member.status);
    } catch (error) {
      const failure = classifyTelegramError(error);
      if (failure.kind === 'transient' || failure.kind === 'rate_limited') throw error;
      if (UNKNOWN_USER.test(failure.description)) return false;
      log.warn(
        { chat_id: chatId, error_code: failure.error_code, description: failure.description },
        'channel condition cannot be checked; entrant kept',
      );
      return true;
    }
  };
}
