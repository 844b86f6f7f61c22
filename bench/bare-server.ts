import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import Fastify from 'fastify';

/**
 * The framework ceiling: the same JSON shapes as /random/int?count=100 and /random/bytes?n=1024,
 * from crypto.randomInt / randomBytes, with no auth, limit, operations log or store.
 */
const app = Fastify({ logger: false });

app.get('/api/v1/random/int', async (request) => {
  const query = request.query as Record<string, string>;
  const min = Number(query.min);
  const max = Number(query.max);
  const count = Number(query.count ?? 1);
  const ids = Array.from({ length: count }, () => randomUUID());
  return {
    numbers: Array.from({ length: count }, () => randomInt(min, max + 1)),
    count,
    range: { min, max },
    qrng_source: 'system',
    request_id: ids[ids.length - 1],
    qrng_request_ids: ids,
  };
});

app.get('/api/v1/random/bytes', async (request) => {
  const n = Number((request.query as Record<string, string>).n ?? 32);
  return {
    bytes: randomBytes(n).toString('hex'),
    format: 'hex',
    length: n,
    qrng_source: 'system',
    request_id: randomUUID(),
    pool: 'crypto',
  };
});

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`${JSON.stringify({ msg: 'tyche is serving', url: address })}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
