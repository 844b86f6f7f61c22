import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { GiveawayService } from '../../giveaways/giveaway.service.ts';
import type { ErrorCode } from '../../shared/errors.ts';
import { accountOf } from '../auth.ts';
import { BODY_ERRORS, errorResponses, OWNED_ERRORS, PROTECTED_ERRORS } from '../schemas.ts';
import {
  CreateBodySchema,
  CreatedGiveawaySchema,
  CsvQuerySchema,
  DrawResponseSchema,
  EmptyBodySchema,
  EntrantParamsSchema,
  EntrantsQuerySchema,
  EntrantsResponseSchema,
  GiveawaySchema,
  ListQuerySchema,
  ListResponseSchema,
  PendingDrawSchema,
  PublicIdParamsSchema,
  ReceiptSchema,
  SealedGiveawaySchema,
  SealingGiveawaySchema,
} from './giveaway.schemas.ts';
import { participantRoutes } from './participants.routes.ts';
import { operationContext } from './random.routes.ts';

const QUERY_ERRORS: ErrorCode[] = [...PROTECTED_ERRORS, 'invalid_parameter', 'invalid_type'];

/** 202: the giveaway as it stands, where to find it, and when the work promised will be done. */
function acceptedGiveaway<G extends { public_id: string }>(
  reply: FastifyReply,
  outcome: { giveaway: G; retryAfterSeconds: number },
) {
  return reply
    .code(202)
    .header('location', `/api/v1/giveaways/${outcome.giveaway.public_id}`)
    .header('retry-after', String(outcome.retryAfterSeconds))
    .send(outcome.giveaway);
}

export const giveawayRoutes: FastifyPluginAsyncTypebox<{ giveaways: GiveawayService }> = async (
  app,
  { giveaways },
) => {
  const common = { tags: ['giveaways'], security: [{ bearer: [] }] };

  app.get(
    '/giveaways',
    {
      schema: {
        ...common,
        operationId: 'listGiveaways',
        summary: "This account's giveaways, newest first",
        querystring: ListQuerySchema,
        response: { 200: ListResponseSchema, ...errorResponses(QUERY_ERRORS) },
      },
    },
    async (request) => giveaways.list(accountOf(request), request.query),
  );

  app.post(
    '/giveaways',
    {
      schema: {
        ...common,
        operationId: 'createGiveaway',
        summary: 'Create a giveaway',
        body: CreateBodySchema,
        response: { 201: CreatedGiveawaySchema, ...errorResponses(BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      const giveaway = await giveaways.create(accountOf(request), request.body);
      return reply.code(201).header('location', `/api/v1/giveaways/${giveaway.public_id}`).send(giveaway);
    },
  );

  app.get(
    '/giveaways/:public_id',
    {
      schema: {
        ...common,
        operationId: 'getGiveaway',
        summary: 'One giveaway, with its winners once drawn',
        params: PublicIdParamsSchema,
        response: { 200: GiveawaySchema, ...errorResponses([...PROTECTED_ERRORS, ...OWNED_ERRORS]) },
      },
    },
    async (request) => giveaways.get(accountOf(request), request.params.public_id),
  );

  // Its own plugin: the CSV and NDJSON upload parsers apply to that route alone.
  await app.register(participantRoutes, { giveaways });

  app.post(
    '/giveaways/:public_id/draw',
    {
      schema: {
        ...common,
        operationId: 'drawGiveaway',
        summary: 'Draw the winners exactly once and issue the signed certificate',
        description:
          'Verifiable giveaways (tyche-draw-v2): seals the list if still active, then waits up to TYCHE_DRAW_WAIT_MS for the committed drand round; 200 when drawn in time, else 202 with the sealed giveaway, `Location` and `Retry-After` — the draw then completes by itself. When the giveaway requires channels whose entrants must be checked again first (or is `sealing` already), entries close and the answer is 202 at once with the `sealing` giveaway, `Location` and `Retry-After`: the seal follows the checks by itself, then the draw its round. A caller waiting while another process completes the draw gets the same certificate. Instant giveaways (tyche-draw-v1): drawn at once from the randomness cascade.',
        params: PublicIdParamsSchema,
        body: EmptyBodySchema,
        response: {
          200: DrawResponseSchema,
          202: PendingDrawSchema,
          ...errorResponses([
            ...BODY_ERRORS,
            ...OWNED_ERRORS,
            'already_drawn',
            'no_participants',
            'randomness_unavailable',
          ]),
        },
      },
    },
    async (request, reply) => {
      const outcome = await giveaways.draw(operationContext(request), request.params.public_id);
      if (outcome.kind === 'drawn') return outcome.draw;
      return acceptedGiveaway(reply, outcome);
    },
  );

  app.post(
    '/giveaways/:public_id/seal',
    {
      schema: {
        ...common,
        operationId: 'sealGiveaway',
        summary: 'Close entries now and commit to a future drand round (verifiable giveaways)',
        description:
          'Answers 200 with the sealed giveaway. When the giveaway requires channels whose entrants must be checked again first, entries close at once and the answer is 202 with the `sealing` giveaway, `Location` and `Retry-After`: the seal follows the checks by itself, and a repeat while `sealing` answers the same 202. Once sealed, a repeat is 409 `giveaway_sealed`.',
        params: PublicIdParamsSchema,
        body: EmptyBodySchema,
        response: {
          200: SealedGiveawaySchema,
          202: SealingGiveawaySchema,
          ...errorResponses([
            ...BODY_ERRORS,
            ...OWNED_ERRORS,
            'not_verifiable',
            'giveaway_sealed',
            'already_drawn',
            'no_participants',
            'randomness_unavailable',
          ]),
        },
      },
    },
    async (request, reply) => {
      const outcome = await giveaways.seal(operationContext(request), request.params.public_id);
      if (outcome.kind === 'sealed') return outcome.giveaway;
      return acceptedGiveaway(reply, outcome);
    },
  );

  app.get(
    '/giveaways/:public_id/entrants',
    {
      schema: {
        ...common,
        operationId: 'listEntrants',
        summary: 'Every entrant with salt and leaf hash, in canonical order: enough to rebuild entrants_root',
        params: PublicIdParamsSchema,
        querystring: EntrantsQuerySchema,
        response: { 200: EntrantsResponseSchema, ...errorResponses([...QUERY_ERRORS, ...OWNED_ERRORS]) },
      },
    },
    async (request) => giveaways.entrants(accountOf(request), request.params.public_id, request.query),
  );

  app.get(
    '/giveaways/:public_id/entrants/:telegram_id/receipt',
    {
      schema: {
        ...common,
        operationId: 'getEntrantReceipt',
        summary: "An entrant's receipt: signed ticket and, once sealed, the inclusion proof",
        params: EntrantParamsSchema,
        response: { 200: ReceiptSchema, ...errorResponses([...PROTECTED_ERRORS, ...OWNED_ERRORS]) },
      },
    },
    async (request) => {
      const raw = request.params.telegram_id;
      const telegramId = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : Number.NaN;
      return giveaways.receipt(accountOf(request), request.params.public_id, telegramId);
    },
  );

  app.get(
    '/giveaways/:public_id/participants.csv',
    {
      schema: {
        ...common,
        operationId: 'exportParticipantsCsv',
        summary: 'Participants report (CSV, streamed)',
        params: PublicIdParamsSchema,
        querystring: CsvQuerySchema,
        response: {
          // A stream, never serialized through a schema: this only documents the media type.
          200: {
            description: 'Header row, then one participant per line (RFC 4180)',
            content: {
              'text/csv': {
                schema: Type.Unknown({ type: 'string' }),
                example:
                  'telegram_id,username,first_name,joined_at,is_winner\r\n123456789,alice,Alice,2026-05-01T08:17:14,false\r\n987654321,bob,,2026-05-01T08:17:14,true\r\n',
              },
            },
          },
          ...errorResponses([...QUERY_ERRORS, ...OWNED_ERRORS]),
        },
      },
    },
    async (request, reply) => {
      const csv = await giveaways.participantsCsv(
        accountOf(request),
        request.params.public_id,
        request.query,
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .send(Readable.from(csv.lines, { objectMode: false }));
    },
  );
};
