import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Store } from '../../store/store.ts';
import type { Metrics } from '../metrics.ts';

const READY_TIMEOUT_MS = 2000;
const StatusSchema = Type.Object({ status: Type.String(), detail: Type.Optional(Type.String()) });

export const healthRoutes: FastifyPluginAsyncTypebox<{ store: Store; metrics: Metrics }> = async (
  app,
  { store, metrics },
) => {
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness: 200 whenever the process is up',
        tags: ['operations'],
        response: { 200: StatusSchema },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: 200 when the store answers, else 503',
        tags: ['operations'],
        response: { 200: StatusSchema, 503: StatusSchema },
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
    { schema: { summary: 'Prometheus metrics', tags: ['operations'] } },
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
