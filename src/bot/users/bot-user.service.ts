import type { Clock } from '../../shared/clock.ts';
import type { BotUser, BotUserRepository } from './bot-user.repository.ts';

export function createBotUserService({ users, clock }: { users: BotUserRepository; clock: Clock }) {
  return {
    recordContact: (user: BotUser) => users.recordContact(user, clock.now().getTime()),
    startedAmong: (telegramIds: readonly number[]) => users.startedAmong(telegramIds),
    languageOf: (telegramId: number) => users.languageOf(telegramId),
    setLanguage: (telegramId: number, language: string) => users.setLanguage(telegramId, language),
    setMenuLanguage: (telegramId: number, language: string | null) =>
      users.setMenuLanguage(telegramId, language),
    startedEntrants: (giveawayId: number, afterId: number, limit: number) =>
      users.startedEntrants(giveawayId, afterId, limit),
  };
}

export type BotUserService = ReturnType<typeof createBotUserService>;
