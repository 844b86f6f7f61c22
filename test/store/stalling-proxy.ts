import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

export async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** PostgreSQL's ReadyForQuery message while idle: 'Z', length 5, 'I'. */
const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

/**
 * Forwards to PostgreSQL until `hang(true)`; after that it holds every byte, as a stalled server
 * would. With `afterReady`, each connection stalls by itself once the server has said it is ready
 * for the first query: connecting works, and nothing after it is ever answered.
 */
export async function stallingProxy(target: URL, options: { afterReady?: boolean } = {}) {
  let hanging = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    let stalled = false;
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
    }
    client.on('data', (d) => {
      if (!hanging && !stalled) upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (hanging || stalled) return;
      client.write(d);
      if (options.afterReady && d.includes(READY)) stalled = true;
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listen(server);
  return {
    port,
    hang: (on: boolean) => {
      hanging = on;
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
