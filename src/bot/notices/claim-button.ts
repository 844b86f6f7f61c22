import { InlineKeyboard } from 'grammy';
import type { Translate } from '../../i18n/catalogue.ts';
import { callbackData } from '../callback-data.ts';
import { utcMinute } from '../format.ts';
import { appUrlFor } from '../join/app-link.ts';

/** The Claim button of a winner's notice (CONTRACT §14): the giveaway and the position won. */
export const claimData = callbackData('cl', ['id', 'position']);

/**
 * A winner's notice as sent: the text, with the claim line and the Claim button when the giveaway
 * sets a deadline (`claimUntil`), and a button to the Mini App when it is served (`appUrl`).
 */
export function withClaim(
  t: Translate,
  text: string,
  claim: { publicId: string; position: number; claimUntil?: string | null | undefined },
  appUrl?: string | undefined,
): { text: string; reply_markup?: InlineKeyboard } {
  const keyboard = new InlineKeyboard();
  if (claim.claimUntil) {
    text = `${text}\n\n${t('winner-claim-by', { until: utcMinute(claim.claimUntil) })}`;
    keyboard.text(
      t('winner-button-claim'),
      claimData.pack({ id: claim.publicId, position: String(claim.position) }),
    );
  }
  if (appUrl !== undefined) {
    if (claim.claimUntil) keyboard.row();
    keyboard.webApp(t('winner-button-app'), appUrlFor(appUrl, claim.publicId));
  }
  return claim.claimUntil || appUrl !== undefined ? { text, reply_markup: keyboard } : { text };
}
