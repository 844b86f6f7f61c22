import type { Kysely } from 'kysely';

/**
 * The bot as a giveaway console (CONTRACT §11).
 *
 * - `giveaways.join_challenge`: whether a join first asks a button challenge.
 * - `bot_users.language`: the language a user chose with /language (null: from Telegram's
 *   `language_code`, kept beside it so background messages use it too).
 * - `bot_conversations`: where a user is in a multi-step dialogue (/new, a join challenge), so
 *   the next message continues it in whichever process receives it, and after a restart.
 * - `giveaway_conditions`: channels an entrant must be a member of; checked at join and again
 *   before the seal. `condition_checks` is that second pass's progress, so a pass over 50 000
 *   entrants survives a restart; `condition_failures` the entrants it found gone.
 * - `excluded_entrants`: entrants taken out of the list at the seal, with the reason, kept for
 *   the owner and auditors (the public page shows only their counts per reason).
 * - `channel_posts`: the giveaway's post in a channel (its Join button), whose entrants count is
 *   edited at most once a minute, and the language the channel's posts are written in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bot_users').addColumn('language', 'text').execute();
  await db.schema.alterTable('bot_users').addColumn('language_code', 'text').execute();
  // 1: a join asks a button challenge first (against bot farms).
  await db.schema
    .alterTable('giveaways')
    .addColumn('join_challenge', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('bot_conversations')
    .addColumn('telegram_id', 'bigint', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    // JSON: the answers given so far.
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('giveaway_conditions')
    .addColumn('giveaway_id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('chat_id', 'bigint', (c) => c.notNull())
    // How people find the channel: @username, or its title for a private one.
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('invite_url', 'text')
    .addPrimaryKeyConstraint('giveaway_conditions_pk', ['giveaway_id', 'position'])
    .execute();

  await db.schema
    .createTable('condition_checks')
    .addColumn('giveaway_id', 'bigint', (c) => c.primaryKey())
    .addColumn('after_entry', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();

  await db.schema
    .createTable('condition_failures')
    .addColumn('giveaway_id', 'bigint', (c) => c.notNull())
    .addColumn('telegram_id', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('condition_failures_pk', ['giveaway_id', 'telegram_id'])
    .execute();

  await db.schema
    .createTable('excluded_entrants')
    .addColumn('giveaway_id', 'bigint', (c) => c.notNull())
    .addColumn('telegram_id', 'bigint', (c) => c.notNull())
    .addColumn('entry_number', 'bigint', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('first_name', 'text')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('excluded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('excluded_entrants_pk', ['giveaway_id', 'telegram_id'])
    .execute();

  await db.schema
    .createTable('channel_posts')
    .addColumn('giveaway_id', 'bigint', (c) => c.primaryKey())
    .addColumn('chat_id', 'bigint', (c) => c.notNull())
    .addColumn('message_id', 'bigint')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('count_shown', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'channel_posts',
    'excluded_entrants',
    'condition_failures',
    'condition_checks',
    'giveaway_conditions',
    'bot_conversations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('bot_users').dropColumn('language').execute();
  await db.schema.alterTable('bot_users').dropColumn('language_code').execute();
  await db.schema.alterTable('giveaways').dropColumn('join_challenge').execute();
}
