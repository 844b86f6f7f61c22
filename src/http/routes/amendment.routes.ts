import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { GiveawayService } from '../../giveaways/giveaway.service.ts';
import { AppError, type ErrorCode } from '../../shared/errors.ts';
import { accountOf } from '../auth.ts';
import { BODY_ERRORS, errorResponses, OWNED_ERRORS } from '../schemas.ts';
import {
  ClaimResponseSchema,
  ReplaceBodySchema,
  ReplaceResponseSchema,
  WinnerParamsSchema,
} from './amendment.schemas.ts';
import { EmptyBodySchema } from './giveaway.schemas.ts';

const WINNER_ERRORS: ErrorCode[] = [...BODY_ERRORS, ...OWNED_ERRORS, 'not_drawn', 'position_replaced'];

/** A winner position as people count: 1, 2, … (a path segment, so read here). */
function positionOf(raw: string): number {
  if (!/^[1-9][0-9]{0,5}$/.test(raw)) {
    throw new AppError(
      'invalid_parameter',
      `position must be a winner position: 1, 2, … (got ${raw.slice(0, 20)})`,
      {
        errors: [{ parameter: 'position', message: 'a positive integer' }],
      },
    );
  }
  return Number(raw);
}

/** CONTRACT §14: after the draw, claims and public replacements of winners from the reserves. */
export const amendmentRoutes: FastifyPluginAsyncTypebox<{ giveaways: GiveawayService }> = async (
  app,
  { giveaways },
) => {
  const common = { tags: ['giveaways'], security: [{ bearer: [] }] };

  app.post(
    '/giveaways/:public_id/winners/:position/replace',
    {
      schema: {
        ...common,
        operationId: 'replaceWinner',
        summary: 'Replace a winner by the next unused reserve, as a signed public amendment',
        description:
          "Owner only. The winner at `position` is replaced by the first reserve not yet used, in reserve order — nothing else can be chosen. The amendment is signed like a seal, chained to the previous one, appended to the transparency log, sent as `giveaway.amended`, posted in the giveaway's channel and told to the new winner. `left_channel` is checked with Telegram: a winner still in the channel is 409 `condition_met`, as is `unclaimed` for a winner who claimed or whose time to claim is not over. Of two concurrent replacements of one position, one is made and the other is 409 `position_replaced`.",
        params: WinnerParamsSchema,
        body: ReplaceBodySchema,
        response: {
          200: ReplaceResponseSchema,
          ...errorResponses([...WINNER_ERRORS, 'no_reserves_left', 'condition_met', 'telegram_unavailable']),
        },
      },
    },
    async (request) => {
      const { public_id: publicId, position } = request.params;
      return giveaways.replaceWinner(accountOf(request), publicId, positionOf(position), request.body);
    },
  );

  app.post(
    '/giveaways/:public_id/winners/:position/claim',
    {
      schema: {
        ...common,
        operationId: 'claimWinner',
        summary: 'Record that a winner claimed the prize',
        description:
          "Owner only. Before the winner's deadline (`claim_within` after the draw, or after the amendment that made them a winner); after it, 409 `claim_expired`. A claim cancels the automatic `unclaimed` replacement; a repeat answers the claim already recorded (also one the winner made with the bot's Claim button).",
        params: WinnerParamsSchema,
        body: EmptyBodySchema,
        response: { 200: ClaimResponseSchema, ...errorResponses([...WINNER_ERRORS, 'claim_expired']) },
      },
    },
    async (request) => {
      const { public_id: publicId, position } = request.params;
      return giveaways.claimWinner(accountOf(request), publicId, positionOf(position));
    },
  );
};
