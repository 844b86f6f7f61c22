import type { Kysely } from 'kysely';

/**
 * Telegram users who have opened a private chat with the bot: only they can be sent a
 * message (a winner notice), since a bot cannot start a conversation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bot_users')
    .addColumn('telegram_id', 'bigint', (c) => c.primaryKey())
    .addColumn('username', 'text')
    .addColumn('first_name', 'text')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bot_users').execute();
}
