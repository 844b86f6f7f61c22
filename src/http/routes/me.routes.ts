import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import type { AccountService } from '../../accounts/account.service.ts';
import { type Clock, nextUtcMidnight } from '../../shared/clock.ts';
import { PlanSchema, TimeSchema } from '../schema-atoms.ts';
import { errorResponses } from '../schemas.ts';

export const MeSchema = Type.Object(
  {
    plan: PlanSchema,
    key_prefix: Type.String({ description: 'The first 12 characters of the key' }),
    requests_today: Type.Integer({ minimum: 0, description: 'Requests counted today (UTC) for this key' }),
    daily_limit: Type.Integer({ minimum: 0 }),
    account_id: Type.String(),
    label: Type.Union([Type.String(), Type.Null()], { description: 'The name given to the key, if any' }),
    reset_at: TimeSchema({ description: 'Next 00:00 UTC, when the counter resets' }),
  },
  {
    description: 'The calling key',
    examples: [
      {
        plan: 'business',
        key_prefix: 'tk_gNFRXJjrA',
        requests_today: 14,
        daily_limit: 1000,
        account_id: '680ec3f7-04e5-462a-be40-6668ba4daa80',
        label: 'shop backend',
        reset_at: '2026-05-02T00:00:00.000Z',
      },
    ],
  },
);
export type Me = Static<typeof MeSchema>;

export const meRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountService; clock: Clock }> = async (
  app,
  { accounts, clock },
) => {
  app.get(
    '/me',
    {
      config: { anyPlan: true },
      schema: {
        operationId: 'getMe',
        summary: 'The calling key: plan, prefix and today’s usage',
        description: 'Answers every valid key whatever its plan, and is not counted against the daily limit.',
        tags: ['account'],
        security: [{ bearer: [] }],
        response: {
          200: MeSchema,
          ...errorResponses(['invalid_parameter', 'unauthorized', 'internal_error', 'service_unavailable']),
        },
      },
    },
    async (request): Promise<Me> => {
      const principal = request.principal!;
      return {
        plan: principal.plan,
        key_prefix: principal.keyPrefix,
        requests_today: await accounts.requestsToday(principal.keyId),
        daily_limit: principal.dailyLimit,
        account_id: principal.accountId,
        label: principal.label,
        reset_at: nextUtcMidnight(clock.now()).toISOString(),
      };
    },
  );
};
