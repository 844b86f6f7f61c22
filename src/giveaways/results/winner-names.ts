// The names people know winners by, for the public giveaway page: the certificate signs each
// winner's Telegram id and username, not the first name the entrant joined with, and a winner
// without a username is known by that first name (as Telegram's own giveaway results show).
// The pages read them through this port; winner-names.repository.ts answers it from the store.

export interface WinnerNamesQuery {
  /** Winners' first names by Telegram id; an id that is not an entrant of the giveaway is absent. */
  firstNames(publicId: string, telegramIds: readonly number[]): Promise<Map<number, string>>;
}
