/**
 * Where a user is in a dialogue of several messages (`/new`, a join challenge), as the composers
 * see it: named here so they depend on this contract, not on the repository that stores it.
 */
export interface Conversation<D = Record<string, unknown>> {
  kind: string;
  step: string;
  data: D;
  updatedAt: number;
}

export interface Conversations {
  /** The user's dialogue, unless there is none or it has lapsed. */
  get<D>(telegramId: number, now: number): Promise<Conversation<D> | undefined>;
  save(
    telegramId: number,
    conversation: Omit<Conversation<unknown>, 'updatedAt'>,
    now: number,
  ): Promise<void>;
  /** Ends the user's dialogue; returns whether there was one. */
  clear(telegramId: number): Promise<boolean>;
}
