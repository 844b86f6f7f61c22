// `tyche verify --receipt` once the committed round is due: the round read from a drand relay by
// the verifier itself, so the entrant's outcome follows from the seal and the round alone while
// the server has not published the certificate (CONTRACT §7.8), and the lines that say so.

import type { DrandBeaconRecord } from '../../proof/drand.ts';
import { lateCertificateNotice } from '../../proof/receipt-checks.ts';
import type { Seal } from '../../proof/v2-types.ts';
import type { Outcome } from '../../proof/verifier.ts';
import { relayOf, relayRound } from './drand-relay.ts';
import type { NotChecked } from './verify-cli-output.ts';
import type { VerifyContext } from './verify-context.ts';
import { CannotCheck } from './verify-inputs.ts';

export interface RoundRead {
  record?: DrandBeaconRecord;
  /** Why there is no record: the round is not due yet, the relay does not serve it yet, or the relay could not be read. */
  missing?: { why: 'not due' | 'not served' | 'unreadable'; detail: string };
  notChecked: NotChecked[];
}

/**
 * The seal's committed round from the relay, when its time has come. A relay that cannot be read
 * leaves the outcome unknown (said, not failed): the checks of the receipt itself still stand.
 */
export async function readCommittedRound(
  context: VerifyContext,
  where: { server: string; publicId: string; giveaway: unknown },
  seal: Seal,
  nowMs: number,
): Promise<RoundRead> {
  const { round, round_at: roundAt, chain_hash: chainHash } = seal.beacon;
  if (nowMs < Date.parse(roundAt)) return { missing: { why: 'not due', detail: '' }, notChecked: [] };
  try {
    const relay = await relayOf(context, where.server, where.publicId, where.giveaway);
    const { url, record } = await relayRound(relay, chainHash, round);
    if (record) return { record, notChecked: [] };
    return { missing: { why: 'not served', detail: `not served yet by ${url}` }, notChecked: [] };
  } catch (error) {
    if (!(error instanceof CannotCheck)) throw error;
    return {
      missing: { why: 'unreadable', detail: error.message },
      notChecked: [
        {
          id: 'outcome',
          label: 'Outcome',
          detail: `not computed: drand round ${round} could not be read (${error.message}); pass --relay URL`,
        },
      ],
    };
  }
}

/** The summary after the checks: the entrant's result, and whether the server is late with it. */
export function outcomeLines(
  outcome: Outcome | undefined,
  seal: Seal,
  from: { certificate: boolean; round?: RoundRead },
): string[] {
  const { round, round_at: roundAt } = seal.beacon;
  const missing = from.certificate ? undefined : from.round?.missing;
  if (missing?.why === 'unreadable') {
    return [`Result: unknown; drand round ${round}, due at ${roundAt}, could not be read from a relay`];
  }
  if (!from.certificate && !from.round?.record) {
    const served = missing?.why === 'not served' ? ` (${missing.detail})` : '';
    return [`Result: not drawn yet; the draw uses drand round ${round}, due at ${roundAt}${served}`];
  }
  const late = from.certificate ? [] : [`${capital(lateCertificateNotice(round, roundAt))}.`];
  if (!outcome) {
    const why = from.certificate ? 'the certificate does not check' : 'the round does not check';
    return [`Result: unknown, ${why}`, ...late];
  }
  return [resultLine(outcome, seal), ...late];
}

function resultLine(outcome: Outcome, seal: Seal): string {
  if (outcome.position === undefined) return 'Result: this entrant was not drawn';
  if (outcome.reserve) {
    const reserve = outcome.position - Math.min(seal.giveaway.winners_count, seal.entrants.count);
    return `Result: this entrant is reserve #${reserve} (position ${outcome.position})`;
  }
  return `Result: this entrant won: winner #${outcome.position}`;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
