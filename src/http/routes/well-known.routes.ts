import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Signer } from '../../giveaways/signer.ts';
import { KEYS_PATH } from '../../proof/keys-path.ts';
import { PUBLIC_READ } from '../public-cors.ts';
import { errorResponses } from '../schemas.ts';
import { KeySetSchema } from './giveaway.schemas.ts';

export const wellKnownRoutes: FastifyPluginAsyncTypebox<{ signer: Signer }> = async (app, { signer }) => {
  // The signing key exists from the first start, not from the first draw, so it can be
  // published (and pinned by verifiers) before any certificate refers to it.
  app.addHook('onReady', async () => {
    await signer.current();
  });

  app.get(
    KEYS_PATH,
    {
      config: PUBLIC_READ,
      schema: {
        tags: ['verify'],
        summary: 'The Ed25519 public keys that sign certificates, retired ones included (JWK set)',
        response: { 200: KeySetSchema, ...errorResponses(['internal_error']) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { keys: await signer.publicKeys() };
    },
  );
};
