import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Store } from '../../store/store.ts';
import type { Metrics } from '../metrics.ts';
import { errorResponses } from '../schemas.ts';

const READY_TIMEOUT_MS = 2000;
// These routes refuse nothing themselves; only a request HTTP cannot read is answered 4xx.
const TRANSPORT_ERRORS = errorResponses(['malformed_request', 'headers_too_large']);
const StatusSchema = Type.Object({ status: Type.String(), detail: Type.Optional(Type.String()) });
const status = (description: string, example: { status: string; detail?: string }) => ({
  ...StatusSchema,
  description,
  examples: [example],
});
const METRICS_EXAMPLE = `# HELP tyche_http_requests_total HTTP requests by route, method and status
# TYPE tyche_http_requests_total counter
tyche_http_requests_total{route="/api/v1/random/int",method="GET",status="200"} 42
`;

export const healthRoutes: FastifyPluginAsyncTypebox<{ store: Store; metrics: Metrics }> = async (
  app,
  { store, metrics },
) => {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'checkLiveness',
        summary: 'Liveness: 200 whenever the process is up',
        tags: ['operations'],
        response: { 200: status('The process is up', { status: 'ok' }), ...TRANSPORT_ERRORS },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'checkReadiness',
        summary: 'Readiness: 200 when the store answers, else 503',
        tags: ['operations'],
        response: {
          200: status('The store answers', { status: 'ready' }),
          503: status('The store does not answer within 2 s', {
            status: 'unavailable',
            detail: 'the store does not answer',
          }),
          ...TRANSPORT_ERRORS,
        },
      },
    },
    async (request, reply) => {
      try {
        await withTimeout(store.ping(), READY_TIMEOUT_MS);
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'store not ready');
        return reply.code(503).send({ status: 'unavailable', detail: 'the store does not answer' });
      }
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        tags: ['operations'],
        response: {
          200: {
            description: 'Prometheus text exposition format',
            content: { 'text/plain': { schema: Type.String({ examples: [METRICS_EXAMPLE] }) } },
          },
          ...TRANSPORT_ERRORS,
        },
      },
    },
    async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref(),
    ),
  ]);
}
