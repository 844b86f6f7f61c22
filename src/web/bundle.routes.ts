import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';
import { ASSET_PREFIX, STANDALONE_VERIFIER } from './browser-modules.ts';
import { type Bundle, browserScript, checkBundlesBuilt, standaloneVerifier } from './bundle.ts';

// Bundles change only with a new release; revalidation by ETag is cheap.
const CACHE = 'public, max-age=300';

function sendBundle(request: FastifyRequest, reply: FastifyReply, bundle: Bundle) {
  reply
    .type('text/javascript; charset=utf-8')
    .header('cache-control', CACHE)
    .header('etag', bundle.etag)
    .header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === bundle.etag) return reply.code(304).send();
  return reply.send(bundle.code);
}

/** The pages' scripts under /assets/js/ and the standalone verifier, as built at install time. */
export const bundleRoutes: FastifyPluginAsync<{
  /** This server's public address: the standalone verifier's default server. */
  servedBy: string;
}> = async (app, { servedBy }) => {
  // A server that could not serve its verifier stops at its start, rather than at a visitor's request.
  checkBundlesBuilt();

  app.get(`${ASSET_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    const pending = browserScript(`${ASSET_PREFIX}${path}`);
    if (!pending) throw new AppError('not_found', 'No such script');
    return sendBundle(request, reply, await pending);
  });

  app.get(
    STANDALONE_VERIFIER.url,
    {
      schema: {
        summary: 'The standalone verifier: one file for plain Node.js 20 or newer',
        description:
          'No key. `node tyche-verify.mjs <verify_url>` re-checks a draw, `--receipt <receipt_url>` one entrant; the same arguments, output and exit status as `tyche verify`. `--help` lists the options.',
        tags: ['verify'],
      },
    },
    async (request, reply) => {
      reply.header('content-disposition', 'inline; filename="tyche-verify.mjs"');
      return sendBundle(request, reply, await standaloneVerifier(servedBy));
    },
  );
};
