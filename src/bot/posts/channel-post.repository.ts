import type { Kysely, Selectable } from 'kysely';
import type { ChannelPostsTable, Database } from '../../store/schema.ts';

export type ChannelPostRow = Selectable<ChannelPostsTable>;

/** A giveaway's post in a Telegram channel: where it is, once sent, and the count it shows. */
export function createChannelPostRepository(db: Kysely<Database>) {
  async function find(giveawayId: number): Promise<ChannelPostRow | undefined> {
    return db
      .selectFrom('channel_posts')
      .selectAll()
      .where('giveaway_id', '=', giveawayId)
      .executeTakeFirst();
  }

  return {
    async insert(giveawayId: number, chatId: number, language: string, at: number): Promise<void> {
      await db
        .insertInto('channel_posts')
        .values({ giveaway_id: giveawayId, chat_id: chatId, message_id: null, language, created_at: at })
        .execute();
    },

    find,

    /** Whether the giveaway has a post in a channel (published from the bot's /new). */
    async exists(giveawayId: number): Promise<boolean> {
      return (await find(giveawayId)) !== undefined;
    },

    async sent(giveawayId: number, messageId: number, count: number): Promise<void> {
      await db
        .updateTable('channel_posts')
        .set({ message_id: messageId, count_shown: count })
        .where('giveaway_id', '=', giveawayId)
        .execute();
    },

    async countShown(giveawayId: number, count: number): Promise<void> {
      await db
        .updateTable('channel_posts')
        .set({ count_shown: count })
        .where('giveaway_id', '=', giveawayId)
        .execute();
    },
  };
}

export type ChannelPostRepository = ReturnType<typeof createChannelPostRepository>;
