import type { Clock } from '../clock.ts';
import type { BotUser, BotUserRepository } from './bot-user.repository.ts';

export function createBotUserService({ users, clock }: { users: BotUserRepository; clock: Clock }) {
  return {
    recordContact: (user: BotUser) => users.recordContact(user, clock.now().getTime()),
    startedAmong: (telegramIds: readonly number[]) => users.startedAmong(telegramIds),
  };
}

export type BotUserService = ReturnType<typeof createBotUserService>;
