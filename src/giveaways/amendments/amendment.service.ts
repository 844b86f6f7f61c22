import type { Amendment } from '../../proof/amendments.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Signer } from '../../signing/signer.ts';
import type { ConditionRepository } from '../conditions/condition.repository.ts';
import type { MembershipCheck } from '../conditions/condition-check.ts';
import type { AnyCertificate, GiveawayRepository, GiveawayRow } from '../core/giveaway.repository.ts';
import type { AmendmentRepository } from './amendment.repository.ts';
import { type AmendmentUnitOfWork, notDrawn, readStanding } from './amendment-writes.ts';
import { createLeftChannelCheck } from './left-channel.ts';
import { createWinnerClaims } from './winner-claims.ts';
import { createWinnerReplacement } from './winner-replacement.ts';
import type { Standing } from './winner-standing.ts';

/**
 * After the draw (CONTRACT §14): claims, replacements from the reserves, the deadline job, and the
 * signed amendments the public views carry. The giveaway service's face hands its calls here
 * once it has found (and, for the owner's calls, checked the ownership of) the giveaway.
 */
export function createAmendmentService(deps: {
  uow: AmendmentUnitOfWork;
  /** Reads outside any transaction. */
  amendments: AmendmentRepository;
  giveaways: Pick<GiveawayRepository, 'findById'>;
  conditions: Pick<ConditionRepository, 'of'>;
  certificateOf(row: GiveawayRow): Promise<AnyCertificate | undefined>;
  signer: Signer;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
}) {
  const { amendments, certificateOf } = deps;
  let membership: MembershipCheck | undefined;

  const leftChannel = createLeftChannelCheck({
    async channelsOf(giveawayId) {
      const required = await deps.conditions.of(giveawayId);
      if (required.length > 0) return required;
      const posted = await amendments.postChannel(giveawayId);
      return posted === undefined ? [] : [{ chat_id: posted, label: "the giveaway's channel" }];
    },
    membership: () => membership,
  });
  const replace = createWinnerReplacement({ ...deps, reads: amendments, leftChannel });
  const claims = createWinnerClaims({ ...deps, reads: amendments, replace });

  return {
    replace,
    claim: claims.claim,

    /** The winners as they stand now, for the bot's console; refuses a giveaway not drawn. */
    async standing(row: GiveawayRow): Promise<Standing> {
      const certificate = row.status === 'completed' ? await certificateOf(row) : undefined;
      if (!certificate) throw notDrawn();
      return (await readStanding(amendments, row, certificate)).standing;
    },

    /** Every signed amendment of a giveaway, in sequence: the `amendments` annotation. */
    signedOf: (giveawayId: number): Promise<Amendment[]> => amendments.signedOf(giveawayId),

    /** Set by the bot when it runs: `left_channel` is checked with Telegram's getChatMember. */
    setMembership(check: MembershipCheck | undefined): void {
      membership = check;
    },

    /** The claim deadline job, for the job runner. */
    jobHandlers: claims.handlers,
  };
}
