import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { matchesEtag } from '../edge/etag.ts';
import { PUBLIC_READ } from '../edge/public-cors.ts';
import type { OrganizerRecords } from '../giveaways/results/organizer-record.ts';
import { AppError } from '../shared/errors.ts';
import { renderOrganizerNotFoundPage, renderOrganizerPage } from './organizer-page.ts';
import { pageLocale, VARY_LANGUAGE } from './page-language.ts';
import { sendPage } from './page-parts.ts';
import { createRenderCache } from './render-cache.ts';
import { requestedForm } from './verify.routes.ts';

/** Owner pseudonyms are `o_` and 16 base62 characters; anything much longer names no one. */
const MAX_OWNER_LENGTH = 128;
/**
 * A record grows with every entry about its owner, so it is never immutable: kept a minute, then
 * revalidated by its ETag, which costs one indexed count and no rebuild while nothing changed.
 */
const CACHE = 'public, max-age=60, must-revalidate';
/** Records (page and JSON) kept per process, each for the log state it was computed at. */
const RENDERED_KEPT = 200;

const OwnerParams = Type.Object({
  owner: Type.String({ description: 'The owner pseudonym, e.g. o_z5GCf12zNRsg6jSm; `.json` for the JSON' }),
});

/**
 * CONTRACT §14 "GET /o/{owner}": an organizer's public record, computed from the transparency log
 * alone, as a page or (`.json`, `Accept: application/json`) as JSON. Each is made once per process
 * for each state of the owner's entries (their count and newest index, one indexed read).
 */
export const organizerRoutes: FastifyPluginAsyncTypebox<{ organizers: OrganizerRecords }> = async (
  app,
  { organizers },
) => {
  const rendered = createRenderCache(RENDERED_KEPT);

  app.get(
    '/o/:owner',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "An organizer's public record, from the transparency log",
        description:
          'No key. Every giveaway the owner pseudonym sealed and drew, the median time from the committed drand round to the draw, winners replaced by reason, and red flags (a giveaway sealed twice, two of its giveaways sealed on one round, a substitute out of reserve order), computed from the log entries about that owner alone. The page works without JavaScript and speaks English or Russian (`?lang=`, else Accept-Language); `.json` or `Accept: application/json` gives the record.',
        tags: ['verify'],
        params: OwnerParams,
      },
    },
    async (request, reply) => {
      const { id: owner, suffixed, wantsJson } = requestedForm(request.params.owner, request.headers.accept);
      // The page speaks the visitor's language (`?lang=`, else Accept-Language); the JSON has none.
      if (!suffixed) reply.header('vary', VARY_LANGUAGE);
      const locale = pageLocale(request);
      const version =
        owner.length > 0 && owner.length <= MAX_OWNER_LENGTH ? await organizers.version(owner) : undefined;
      const unknown = () => {
        if (wantsJson) throw new AppError('not_found', 'The transparency log holds nothing about this owner');
        return sendPage(reply, 404, renderOrganizerNotFoundPage(owner, locale));
      };
      if (!version || version.count === 0) return unknown();
      const key = `${wantsJson ? 'json' : `page-${locale.lang}-${locale.chosen}`}:${owner}:${version.count}:${version.last}`;
      const out = await rendered.get(key, async () => {
        const record = await organizers.record(owner);
        if (!record) throw new AppError('not_found', 'The transparency log holds nothing about this owner');
        return wantsJson ? JSON.stringify(record) : renderOrganizerPage(record, locale);
      });
      reply.header('cache-control', CACHE).header('etag', out.etag);
      if (matchesEtag(request.headers['if-none-match'], out.etag)) return reply.code(304).send();
      if (wantsJson) return reply.type('application/json; charset=utf-8').send(out.body);
      return sendPage(reply, 200, out.body.toString());
    },
  );
};
