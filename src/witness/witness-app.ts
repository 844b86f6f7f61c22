import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Witness } from './witness.service.ts';

/** A request body far above the 63 proof lines and a note with many signatures. */
const BODY_LIMIT = 64 * 1024;

/**
 * The witness's HTTP side: `POST /add-checkpoint` (c2sp.org/tlog-witness) and `GET /healthz`.
 * Answers are plain text, as the protocol has them.
 */
export async function buildWitnessApp(
  witness: Witness,
  logger?: FastifyBaseLogger,
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: BODY_LIMIT,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return reply
      .code(status)
      .type('text/plain; charset=utf-8')
      .send(`${status < 500 ? error.message : 'internal error'}\n`);
  });
  app.post('/add-checkpoint', async (request, reply) => {
    const answer = await witness.addCheckpoint(typeof request.body === 'string' ? request.body : '');
    return reply.code(answer.status).type(answer.contentType).send(answer.body);
  });
  app.get('/healthz', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok\n'));
  return app;
}
