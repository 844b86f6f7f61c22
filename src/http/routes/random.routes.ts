import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { OperationContext, RandomService } from '../../randomness/random.service.ts';
import type { SourceName } from '../../randomness/source.ts';
import { AppError } from '../../shared/errors.ts';
import { errorResponses, PROTECTED_ERRORS } from '../schemas.ts';
import {
  BytesQuerySchema,
  BytesResponseSchema,
  ChoiceBodySchema,
  ChoiceResponseSchema,
  IntQuerySchema,
  IntResponseSchema,
  type Operation,
  OperationParamsSchema,
  OperationSchema,
  ShuffleBodySchema,
  ShuffleResponseSchema,
  SignedQuerySchema,
} from './random.schemas.ts';

const RANDOM_ERRORS = [
  ...PROTECTED_ERRORS,
  'invalid_parameter',
  'missing_parameter',
  'invalid_type',
  'randomness_unavailable',
] as const;
const BODY_ERRORS = [
  ...RANDOM_ERRORS,
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
] as const;

export function operationContext(request: FastifyRequest): OperationContext {
  const principal = request.principal!;
  const meter = request.meter;
  return {
    accountId: principal.accountId,
    keyId: principal.keyId,
    xRequestId: request.id,
    endpoint: `${request.method} ${request.routeOptions.url}`,
    meter: meter
      ? {
          keyId: meter.keyId,
          day: meter.day,
          holder: meter.holder,
          counted: (requestsToday) => {
            request.quotaTicket = meter.spent(requestsToday);
          },
        }
      : undefined,
  };
}

/** The random endpoints count each request in the transaction of its operations record. */
const counted = { countsWithRecord: true };

export const randomRoutes: FastifyPluginAsyncTypebox<{ random: RandomService }> = async (app, { random }) => {
  const common = { tags: ['random'], security: [{ bearer: [] }] };

  app.get(
    '/random/int',
    {
      config: counted,
      schema: {
        ...common,
        operationId: 'getRandomIntegers',
        summary: 'Uniform random integers in [min, max], without modulo bias',
        querystring: IntQuerySchema,
        response: { 200: IntResponseSchema, ...errorResponses([...RANDOM_ERRORS]) },
      },
    },
    async (request) => random.int(operationContext(request), request.query, request.query.signed),
  );

  app.post(
    '/random/choice',
    {
      config: counted,
      schema: {
        ...common,
        operationId: 'chooseRandomItems',
        summary: 'Choose count elements of items, optionally at distinct positions',
        querystring: SignedQuerySchema,
        body: ChoiceBodySchema,
        response: { 200: ChoiceResponseSchema, ...errorResponses([...BODY_ERRORS]) },
      },
    },
    async (request) => random.choice(operationContext(request), request.body, request.query.signed),
  );

  app.post(
    '/random/shuffle',
    {
      config: counted,
      schema: {
        ...common,
        operationId: 'shuffleItems',
        summary: 'Fisher–Yates shuffle of items',
        querystring: SignedQuerySchema,
        body: ShuffleBodySchema,
        response: { 200: ShuffleResponseSchema, ...errorResponses([...BODY_ERRORS]) },
      },
    },
    async (request) => random.shuffle(operationContext(request), request.body, request.query.signed),
  );

  app.get(
    '/random/bytes',
    {
      config: counted,
      schema: {
        ...common,
        operationId: 'getRandomBytes',
        summary: 'Random bytes from the system CSPRNG mixed with the external source',
        querystring: BytesQuerySchema,
        response: { 200: BytesResponseSchema, ...errorResponses([...RANDOM_ERRORS]) },
      },
    },
    async (request) => random.bytes(operationContext(request), request.query, request.query.signed),
  );

  app.get(
    '/operations/:request_id',
    {
      schema: {
        ...common,
        tags: ['support'],
        operationId: 'getOperation',
        summary: 'The record of one randomness operation of this account, with its signed result',
        params: OperationParamsSchema,
        response: {
          200: OperationSchema,
          ...errorResponses([...PROTECTED_ERRORS, 'forbidden', 'not_found']),
        },
      },
    },
    async (request): Promise<Operation> => {
      const id = request.params.request_id;
      const found = await random.findOperation(id);
      if (!found) throw new AppError('not_found', `No operation has the id ${id}`);
      const { record, result } = found;
      if (record.account_id !== request.principal!.accountId) {
        throw new AppError('forbidden', 'This operation belongs to another account');
      }
      return {
        request_id: id,
        x_request_id: record.x_request_id,
        endpoint: record.endpoint,
        qrng_source: record.source as SourceName,
        source_reference: record.source_reference,
        source_fetched_at: new Date(record.source_fetched_at).toISOString(),
        created_at: new Date(record.created_at).toISOString(),
        ...(result ? { result: result as Operation['result'] } : {}),
      };
    },
  );
};
