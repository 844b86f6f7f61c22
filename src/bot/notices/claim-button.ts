import { InlineKeyboard } from 'grammy';
import type { Translate } from '../../i18n/catalogue.ts';
import { callbackData } from '../callback-data.ts';
import { utcMinute } from '../format.ts';

/** The Claim button of a winner's notice (CONTRACT §14): the giveaway and the position won. */
export const claimData = callbackData('cl', ['id', 'position']);

/**
 * A winner's notice as sent: the text, with the claim line and the Claim button when the giveaway
 * sets a deadline (`claimUntil`), and the text alone when it does not.
 */
export function withClaim(
  t: Translate,
  text: string,
  claim: { publicId: string; position: number; claimUntil?: string | null | undefined },
): { text: string; reply_markup?: InlineKeyboard } {
  if (!claim.claimUntil) return { text };
  return {
    text: `${text}\n\n${t('winner-claim-by', { until: utcMinute(claim.claimUntil) })}`,
    reply_markup: new InlineKeyboard().text(
      t('winner-button-claim'),
      claimData.pack({ id: claim.publicId, position: String(claim.position) }),
    ),
  };
}
