import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AccountService } from '../../accounts/account.service.ts';
import { type Clock, nextUtcMidnight } from '../../clock.ts';
import { errorResponses } from '../schemas.ts';

export const MeSchema = Type.Object({
  plan: Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('business')]),
  key_prefix: Type.String({ description: 'The first 12 characters of the key' }),
  requests_today: Type.Integer({ description: 'Requests counted today (UTC) for this key' }),
  daily_limit: Type.Integer(),
  account_id: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  reset_at: Type.String({ format: 'date-time', description: 'Next 00:00 UTC, when the counter resets' }),
});

export const meRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountService; clock: Clock }> = async (
  app,
  { accounts, clock },
) => {
  app.get(
    '/me',
    {
      config: { anyPlan: true },
      schema: {
        summary: 'The calling key: plan, prefix and today’s usage',
        description: 'Answers every valid key whatever its plan, and is not counted against the daily limit.',
        tags: ['account'],
        security: [{ bearer: [] }],
        response: { 200: MeSchema, ...errorResponses(['unauthorized', 'internal_error']) },
      },
    },
    async (request) => {
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
