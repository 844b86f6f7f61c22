import { AppError } from '../shared/errors.ts';
import { hasBusinessAccess, type Plan } from './plans.ts';

/** The answer to a key that is missing, malformed, unknown or revoked (CONTRACT §2: 401). */
export const keyRefused = () => new AppError('unauthorized', 'The API key is unknown or revoked');

/** The answer to a valid key whose account's plan does not open the endpoint (403). */
export const planRefused = (plan: Plan) =>
  new AppError(
    'plan_not_supported',
    `This endpoint needs the Business plan; the key's account is on ${plan}`,
  );

/** The refusal of an account on `plan` at a Business endpoint, or undefined when it may do business. */
export const planRefusal = (plan: Plan): AppError | undefined =>
  hasBusinessAccess(plan) ? undefined : planRefused(plan);

/** A key's state as a statement read it: absent when no key has the id. */
export interface KeyStanding {
  revoked: boolean;
  plan: Plan;
}

/** Why a key may not do business now, or undefined when it may. */
export function refusalOf(standing: KeyStanding | undefined): AppError | undefined {
  if (!standing || standing.revoked) return keyRefused();
  return planRefusal(standing.plan);
}

/** The refusals above: an answer about the key itself, which no retry with it will change. */
export const isKeyRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && (error.code === 'unauthorized' || error.code === 'plan_not_supported');
