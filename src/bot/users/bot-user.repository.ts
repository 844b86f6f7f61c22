import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';

export interface BotUser {
  telegram_id: number;
  username: string | null;
  first_name: string | null;
  language_code: string | null;
}

/** What a contact's update needs to know of the user's languages. */
export interface ContactLanguages {
  /** Chosen with /language; null: from Telegram's language_code. */
  language: string | null;
  /** Of the menu button set in the private chat; null: none, the bot's default shows. */
  menuLanguage: string | null;
}

/** Winners per draw are capped at 1000; chunks keep each statement's parameter list small. */
const CHUNK = 500;

export function createBotUserRepository(db: Kysely<Database>) {
  return {
    /**
     * Records a private-chat contact (the first time is when the user started the bot) and
     * returns the language the user chose with /language, if any, and the language of the menu
     * button set in their chat, if any.
     */
    async recordContact(user: BotUser, at: number): Promise<ContactLanguages> {
      const row = await db
        .insertInto('bot_users')
        .values({ ...user, started_at: at, last_seen_at: at, language: null, menu_language: null })
        .onConflict((oc) =>
          oc.column('telegram_id').doUpdateSet({
            username: user.username,
            first_name: user.first_name,
            language_code: user.language_code,
            last_seen_at: at,
          }),
        )
        .returning(['language', 'menu_language'])
        .executeTakeFirst();
      return { language: row?.language ?? null, menuLanguage: row?.menu_language ?? null };
    },

    /** Remembers the language of the menu button set in the user's chat (null: the default). */
    async setMenuLanguage(telegramId: number, language: string | null): Promise<void> {
      await db
        .updateTable('bot_users')
        .set({ menu_language: language })
        .where('telegram_id', '=', telegramId)
        .execute();
    },

    /** The user's chosen language and Telegram's language_code, for messages sent later. */
    async languageOf(telegramId: number): Promise<{ language: string | null; language_code: string | null }> {
      const row = await db
        .selectFrom('bot_users')
        .select(['language', 'language_code'])
        .where('telegram_id', '=', telegramId)
        .executeTakeFirst();
      return { language: row?.language ?? null, language_code: row?.language_code ?? null };
    },

    async setLanguage(telegramId: number, language: string): Promise<void> {
      await db.updateTable('bot_users').set({ language }).where('telegram_id', '=', telegramId).execute();
    },

    /** A page of a giveaway's entrants who started the bot, by Telegram id, with their language. */
    async startedEntrants(giveawayId: number, afterId: number, limit: number) {
      const rows = await db
        .selectFrom('participants as p')
        .innerJoin('bot_users as u', 'u.telegram_id', 'p.telegram_id')
        .select(['p.telegram_id', 'u.language', 'u.language_code'])
        .where('p.giveaway_id', '=', giveawayId)
        .where('p.telegram_id', '>', afterId)
        .orderBy('p.telegram_id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        telegramId: Number(r.telegram_id),
        language: r.language,
        languageCode: r.language_code,
      }));
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
