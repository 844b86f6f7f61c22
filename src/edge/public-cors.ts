import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `'public-read'`: any site may read this route's JSON from its own page (CONTRACT §3
     * "Public, no key"), so a verification can run anywhere. `'preflight'` marks the OPTIONS
     * route added for it.
     */
    cors?: 'public-read' | 'preflight';
  }
}

/** Route config of a read-only public JSON route: `app.get(url, { config: PUBLIC_READ, … }, …)`. */
export const PUBLIC_READ = { cors: 'public-read' } as const;

const TOKEN_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

// Only JSON is opened to other origins: the HTML pages and PDFs of the same routes need not be.
const allowAnyOrigin: onSendHookHandler = async (_request, reply, payload) => {
  if (/json/i.test(String(reply.getHeader('content-type') ?? ''))) {
    reply.header('access-control-allow-origin', '*');
  }
  return payload;
};

// Nothing is sent with credentials, so reflecting the asked-for headers opens nothing private.
async function preflight(request: FastifyRequest, reply: FastifyReply) {
  const asked = request.headers['access-control-request-headers'];
  if (typeof asked === 'string' && TOKEN_LIST.test(asked.trim())) {
    reply.header('access-control-allow-headers', asked.trim());
  }
  return reply
    .code(204)
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
    .header('access-control-max-age', '86400')
    .send();
}

/**
 * Opens every route marked PUBLIC_READ to cross-origin reads: `Access-Control-Allow-Origin: *`
 * on its JSON answers (errors included, so a page can tell "not found" from a network failure)
 * and an OPTIONS route answering preflights. Call once on the root instance, before any route.
 */
export function allowPublicReads(app: FastifyInstance): void {
  app.addHook('onRoute', function addCors(route) {
    if (route.config?.cors !== 'public-read') return;
    const hooks =
      route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...hooks, allowAnyOrigin];
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    // `this` is the instance the route was declared in: its own prefix applies again.
    this.route({
      method: 'OPTIONS',
      url: route.routePath,
      config: { cors: 'preflight' },
      schema: { hide: true },
      handler: preflight,
    });
  });
}
