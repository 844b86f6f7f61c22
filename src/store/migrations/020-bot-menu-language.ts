import type { Kysely } from 'kysely';

/**
 * The Mini App's menu button per private chat (CONTRACT §15): the bot sets one default button, in
 * English, and a Russian one in each chat of a user whose language is Russian. `menu_language`
 * is the language of the button set in that chat (null: none, the default shows), so the bot
 * calls setChatMenuButton once per chat and language, never per message, across restarts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bot_users').addColumn('menu_language', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bot_users').dropColumn('menu_language').execute();
}
