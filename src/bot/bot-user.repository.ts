import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

export interface BotUser {
  telegram_id: number;
  username: string | null;
  first_name: string | null;
}

/** Winners per draw are capped at 1000; chunks keep each statement's parameter list small. */
const CHUNK = 500;

export function createBotUserRepository(db: Kysely<Database>) {
  return {
    /** Records a private-chat contact; the first time is when the user started the bot. */
    async recordContact(user: BotUser, at: number): Promise<void> {
      await db
        .insertInto('bot_users')
        .values({ ...user, started_at: at, last_seen_at: at })
        .onConflict((oc) =>
          oc.column('telegram_id').doUpdateSet({
            username: user.username,
            first_name: user.first_name,
            last_seen_at: at,
          }),
        )
        .execute();
    },

    /** Which of these Telegram users have started the bot (and so can be messaged). */
    async startedAmong(telegramIds: readonly number[]): Promise<Set<number>> {
      const found = new Set<number>();
      for (let i = 0; i < telegramIds.length; i += CHUNK) {
        const rows = await db
          .selectFrom('bot_users')
          .select('telegram_id')
          .where('telegram_id', 'in', telegramIds.slice(i, i + CHUNK))
          .execute();
        for (const row of rows) found.add(Number(row.telegram_id));
      }
      return found;
    },
  };
}

export type BotUserRepository = ReturnType<typeof createBotUserRepository>;
