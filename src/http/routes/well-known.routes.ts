import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PUBLIC_READ } from '../../edge/public-cors.ts';
import type { LogService } from '../../log/log.service.ts';
import { KEYS_PATH } from '../../proof/keys-path.ts';
import type { Signer } from '../../signing/signer.ts';
import { errorResponses } from '../schemas.ts';
import { KeySetSchema } from './well-known.schemas.ts';

export const wellKnownRoutes: FastifyPluginAsyncTypebox<{ signer: Signer; log: LogService }> = async (
  app,
  { signer, log },
) => {
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
        operationId: 'getSigningKeys',
        summary: 'The Ed25519 public keys that sign certificates and seals (JWK set), and the log key',
        description:
          'No key. Each signing key names the log entries that announce (and retire) it in `log_indices`; verifiers take keys from those entries, checked against the log key they pinned. `log.key` is the log key as a C2SP note verifier key.',
        response: { 200: KeySetSchema, ...errorResponses(['internal_error']) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      const keys = await signer.publicKeys();
      return {
        keys: await Promise.all(keys.map(async (k) => ({ ...k, log_indices: await log.keyIndices(k.kid) }))),
        log: await log.publicKey(),
      };
    },
  );
};
