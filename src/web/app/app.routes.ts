import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { AMENDMENT_REASONS, type AmendmentReason } from '../../proof/amendments.ts';
import { AppError } from '../../shared/errors.ts';
import { sendPage } from '../page-parts.ts';
import type { AppEntrant } from './app-entrant.ts';
import type { AppOwner, OwnerContext } from './app-owner.ts';
import type { AppSessions } from './app-session.ts';
import type { AppTokens } from './app-token.ts';

export interface AppRouteDeps {
  sessions: AppSessions;
  entrant: AppEntrant;
  owner: AppOwner;
  tokens: AppTokens;
  /** The page as served (its words embedded) and its CSP. */
  page: { html: string; csp: string };
}

// Not part of the public API's reference: the app's own calls, documented in docs/telegram-bot.md.
const HIDDEN = { hide: true } as const;
const PRIVATE = 'no-store';

const PublicIdParams = Type.Object({ public_id: Type.String({ minLength: 1, maxLength: 64 }) });
const PositionParams = Type.Object({
  public_id: Type.String({ minLength: 1, maxLength: 64 }),
  // A path segment is text: a winner position as people count, 1, 2, …
  position: Type.String({ pattern: '^[1-9][0-9]{0,3}$' }),
});

const NewGiveawayBody = Type.Object(
  {
    title: Type.String({ maxLength: 1000 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    winners_count: Type.Integer(),
    reserve_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    ends_at: Type.Optional(Type.String({ maxLength: 64 })),
    channel: Type.String({ minLength: 1, maxLength: 200 }),
    required_channels: Type.Optional(Type.String({ maxLength: 1000 })),
    claim_within: Type.Optional(Type.String({ maxLength: 32 })),
    terms: Type.Optional(Type.String({ maxLength: 20_000 })),
    language: Type.Union([Type.Literal('en'), Type.Literal('ru')]),
  },
  { additionalProperties: false },
);

const ReplaceBody = Type.Object(
  { reason: Type.Union(AMENDMENT_REASONS.map((r) => Type.Literal(r))) },
  { additionalProperties: false },
);

const CsvQuery = Type.Object({
  u: Type.Optional(Type.String({ maxLength: 20 })),
  exp: Type.Optional(Type.String({ maxLength: 20 })),
  sig: Type.Optional(Type.String({ maxLength: 64 })),
});

const json = (reply: FastifyReply, body: unknown) =>
  reply.header('cache-control', PRIVATE).type('application/json; charset=utf-8').send(JSON.stringify(body));

/**
 * The Telegram Mini App (CONTRACT §15): the page at /app, its sign-in, its JSON calls under
 * /app/api/ (a bearer token from the sign-in, never a cookie, so there is no CSRF surface), and
 * the signed CSV link. Registered only when the bot runs: without a bot token every path is 404.
 */
export const appRoutes: FastifyPluginAsyncTypebox<AppRouteDeps> = async (app, deps) => {
  const { sessions, entrant, owner } = deps;
  const ownerOf = async (request: {
    headers: { authorization?: string | undefined };
    id: string;
  }): Promise<OwnerContext> => {
    const caller = await sessions.owner(request.headers.authorization);
    return { accountId: caller.accountId, telegramId: caller.telegramId, requestId: request.id };
  };

  app.get('/app', { schema: HIDDEN }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return sendPage(reply, 200, deps.page.html, deps.page.csp);
  });

  app.post(
    '/app/session',
    {
      schema: {
        ...HIDDEN,
        body: Type.Object({ init_data: Type.String({ maxLength: 10_000 }) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => json(reply, await sessions.signIn(request.body.init_data)),
  );

  app.get('/app/api/me', { schema: HIDDEN }, async (request, reply) => {
    const caller = await sessions.caller(request.headers.authorization);
    return json(reply, { telegram_id: caller.telegramId, plan: caller.plan, business: caller.business });
  });

  app.get('/app/api/entries', { schema: HIDDEN }, async (request, reply) => {
    const caller = await sessions.caller(request.headers.authorization);
    return json(reply, { entries: await entrant.entries(caller.telegramId) });
  });

  app.post(
    '/app/api/entries/:public_id/winners/:position/claim',
    { schema: { ...HIDDEN, params: PositionParams } },
    async (request, reply) => {
      const caller = await sessions.caller(request.headers.authorization);
      const { public_id: publicId, position } = request.params;
      return json(reply, await entrant.claim(caller.telegramId, publicId, Number(position)));
    },
  );

  app.get('/app/api/giveaways', { schema: HIDDEN }, async (request, reply) => {
    const ctx = await ownerOf(request);
    return json(reply, await owner.list(ctx.accountId));
  });

  app.post('/app/api/giveaways', { schema: { ...HIDDEN, body: NewGiveawayBody } }, async (request, reply) => {
    const ctx = await ownerOf(request);
    reply.code(201);
    return json(reply, await owner.create(ctx, request.body));
  });

  app.get(
    '/app/api/giveaways/:public_id',
    { schema: { ...HIDDEN, params: PublicIdParams } },
    async (request, reply) => {
      const ctx = await ownerOf(request);
      return json(reply, await owner.detail(ctx.accountId, request.params.public_id));
    },
  );

  for (const action of ['seal', 'draw'] as const) {
    app.post(
      `/app/api/giveaways/:public_id/${action}`,
      { schema: { ...HIDDEN, params: PublicIdParams } },
      async (request, reply) => {
        const ctx = await ownerOf(request);
        return json(reply, await owner[action](ctx, request.params.public_id));
      },
    );
  }

  app.post(
    '/app/api/giveaways/:public_id/winners/:position/replace',
    { schema: { ...HIDDEN, params: PositionParams, body: ReplaceBody } },
    async (request, reply) => {
      const ctx = await ownerOf(request);
      const { public_id: publicId, position } = request.params;
      const reason = request.body.reason as AmendmentReason;
      return json(reply, await owner.replace(ctx, publicId, Number(position), reason));
    },
  );

  app.post(
    '/app/api/giveaways/:public_id/csv-link',
    { schema: { ...HIDDEN, params: PublicIdParams } },
    async (request, reply) => {
      const ctx = await ownerOf(request);
      return json(reply, await owner.csvLink(ctx, request.params.public_id));
    },
  );

  // Opened by the browser (or Telegram's link opener) without headers: the signed link is the credential.
  app.get(
    '/app/csv/:public_id',
    { schema: { ...HIDDEN, params: PublicIdParams, querystring: CsvQuery } },
    async (request, reply) => {
      const publicId = request.params.public_id;
      const telegramId = deps.tokens.checkLink(`csv:${publicId}`, request.query);
      const caller = await sessions.callerById(telegramId);
      if (!caller.business || caller.accountId === null) {
        throw new AppError('plan_not_supported', 'Running giveaways needs the Business plan');
      }
      const csv = await owner.csv(caller.accountId, publicId);
      return reply
        .header('cache-control', PRIVATE)
        .header('referrer-policy', 'no-referrer')
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .send(Readable.from(csv.lines, { objectMode: false }));
    },
  );
};
