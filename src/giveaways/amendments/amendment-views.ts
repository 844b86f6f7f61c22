import { type Amendment, amendedWinners } from '../../proof/amendments.ts';
import type { Winner } from '../results/giveaway.views.ts';
import type { Replaced } from './winner-replacement.ts';

/** The 200 of `POST …/winners/{position}/replace` (CONTRACT §14). */
export interface ReplaceResponse {
  public_id: string;
  certificate_id: string;
  /** The signed amendment just made. */
  amendment: Amendment;
  /** Its entry in the transparency log, beside the signed object. */
  log_index: number;
  /** The winners after every amendment, in position order (the shape of the giveaway's `winners`). */
  amended_winners: Winner[];
  /** Reserves not used yet: how many more replacements can be made. */
  reserves_left: number;
}

export function replaceResponseOf(done: Replaced): ReplaceResponse {
  return {
    public_id: done.amendment.giveaway,
    certificate_id: done.certificate.certificate_id,
    amendment: done.amendment,
    log_index: done.logIndex,
    amended_winners: amendedWinners(done.certificate, done.amendments).map((w) => ({
      username: w.username,
      telegram_id: w.telegram_id,
    })),
    reserves_left: done.reservesLeft,
  };
}
