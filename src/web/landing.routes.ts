import type { FastifyPluginAsync } from 'fastify';
import { etagOf, matchesEtag } from '../edge/etag.ts';
import { FAVICON_PATH } from '../edge/html.ts';
import { AppError } from '../shared/errors.ts';
import { FAVICON_SVG, renderLandingPage, wantsHtml } from './landing-page.ts';
import { pageLocale, VARY_LANGUAGE } from './page-language.ts';
import { sendPage } from './page-parts.ts';

const FAVICON_ETAG = etagOf(FAVICON_SVG);

/**
 * `/`: a short page for browsers, and for API clients the problem document they always had (no
 * route there for them); the icon at /favicon.svg and /favicon.ico (browsers ask for the latter
 * by themselves).
 */
export const landingRoutes: FastifyPluginAsync = async (app) => {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    reply.header('vary', VARY_LANGUAGE);
    if (!wantsHtml(request.headers.accept))
      throw new AppError('not_found', `No route matches ${request.method} /`);
    reply.header('cache-control', 'public, max-age=300');
    return sendPage(reply, 200, renderLandingPage(pageLocale(request)));
  });
  for (const path of [FAVICON_PATH, '/favicon.ico']) {
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .header('etag', FAVICON_ETAG)
        .header('x-content-type-options', 'nosniff');
      if (matchesEtag(request.headers['if-none-match'], FAVICON_ETAG)) return reply.code(304).send();
      return reply.send(FAVICON_SVG);
    });
  }
};
