import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Fastify answers 404 for a known path with an unknown method. A second router that knows
 * only paths lets the not-found handler tell the two apart and answer 405 with `Allow`.
 */
export function trackRoutes(app: FastifyInstance) {
  const router = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      try {
        router.on(method.toUpperCase() as HTTPMethod, route.url, () => {});
      } catch {
        // Already known (Fastify adds HEAD for every GET): nothing to learn.
      }
    }
  });
  return {
    allowedMethods(url: string): string[] {
      const path = url.split('?')[0];
      return METHODS.filter((method) => router.find(method, path) !== null);
    },
  };
}
