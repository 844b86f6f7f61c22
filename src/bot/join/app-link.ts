import { InlineKeyboard } from 'grammy';

/**
 * The Mini App's address for one giveaway: the app opens on it. A query, not a fragment, since
 * Telegram puts its launch parameters in the fragment.
 */
export function appUrlFor(appUrl: string, publicId?: string): string {
  return publicId === undefined ? appUrl : `${appUrl}?g=${encodeURIComponent(publicId)}`;
}

/** A button that opens the Mini App (CONTRACT §15), or nothing when the app is not served. */
export function appKeyboard(text: string, appUrl: string | undefined, publicId?: string) {
  return appUrl === undefined ? undefined : new InlineKeyboard().webApp(text, appUrlFor(appUrl, publicId));
}
