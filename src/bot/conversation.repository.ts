import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { Conversation } from './conversation-port.ts';

/** A dialogue nobody answered for a day is over: its next message starts afresh. */
export const CONVERSATION_TTL_MS = 86_400_000;

/**
 * Dialogues live in the store, not in the process: the next message continues where the last
 * left off in whichever process receives it (webhook mode spreads updates over processes), and
 * after a restart.
 */
export function createConversationRepository(db: Kysely<Database>) {
  return {
    async get<D>(telegramId: number, now: number): Promise<Conversation<D> | undefined> {
      const row = await db
        .selectFrom('bot_conversations')
        .selectAll()
        .where('telegram_id', '=', telegramId)
        .executeTakeFirst();
      if (!row || Number(row.updated_at) < now - CONVERSATION_TTL_MS) return undefined;
      return {
        kind: row.kind,
        step: row.step,
        data: JSON.parse(row.data) as D,
        updatedAt: Number(row.updated_at),
      };
    },

    async save(telegramId: number, conversation: Omit<Conversation<unknown>, 'updatedAt'>, now: number) {
      const row = {
        kind: conversation.kind,
        step: conversation.step,
        data: JSON.stringify(conversation.data),
        updated_at: now,
      };
      await db
        .insertInto('bot_conversations')
        .values({ telegram_id: telegramId, ...row })
        .onConflict((oc) => oc.column('telegram_id').doUpdateSet(row))
        .execute();
    },

    /** Ends the user's dialogue; returns whether there was one. */
    async clear(telegramId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('bot_conversations')
        .where('telegram_id', '=', telegramId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type ConversationRepository = ReturnType<typeof createConversationRepository>;
