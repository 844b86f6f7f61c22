import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * The reference: the same JSON as /random/int and /random/bytes from crypto.randomInt,
 * crypto.randomBytes and crypto.randomUUID on plain node:http, with no framework, auth, daily
 * limit, operations record, store or request log. What the full stack adds is measured against it.
 */
function intBody(query: URLSearchParams) {
  const min = Number(query.get('min'));
  const max = Number(query.get('max'));
  const count = Number(query.get('count') ?? 1);
  const numbers = new Array<number>(count);
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    numbers[i] = randomInt(min, max + 1);
    ids[i] = randomUUID();
  }
  return {
    numbers,
    count,
    range: { min, max },
    qrng_source: 'system',
    request_id: ids[count - 1],
    qrng_request_ids: ids,
  };
}

function bytesBody(query: URLSearchParams) {
  const n = Number(query.get('n') ?? 32);
  return {
    bytes: randomBytes(n).toString('hex'),
    format: 'hex',
    length: n,
    qrng_source: 'system',
    request_id: randomUUID(),
    pool: 'crypto',
  };
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://reference');
  const body =
    url.pathname === '/api/v1/random/int'
      ? intBody(url.searchParams)
      : url.pathname === '/api/v1/random/bytes'
        ? bytesBody(url.searchParams)
        : undefined;
  if (!body) {
    response.writeHead(404).end();
    return;
  }
  const json = JSON.stringify(body);
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ msg: 'tyche is serving', url: `http://127.0.0.1:${port}` })}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
