import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Witness } from './witness.service.ts';

/**
 * Far above the largest honest request: 63 proof lines and a checkpoint carrying the 100
 * signatures a note may have come to some 15 KiB.
 */
const BODY_LIMIT = 64 * 1024;
const TEXT = 'text/plain; charset=utf-8';

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
  // The protocol names no content type for requests: every body is read as text, whatever it says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'add-checkpoint failed');
    return reply
      .code(status)
      .type(TEXT)
      .send(`${status < 500 ? error.message : 'internal error'}\n`);
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).type(TEXT).send('not found\n'));
  app.post('/add-checkpoint', async (request, reply) => {
    const answer = await witness.addCheckpoint(typeof request.body === 'string' ? request.body : '');
    return reply.code(answer.status).type(answer.contentType).send(answer.body);
  });
  app.get('/healthz', async (_request, reply) => reply.type(TEXT).send('ok\n'));
  return app;
}
