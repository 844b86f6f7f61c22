import type { Server } from 'node:http';

/** Listens on 127.0.0.1:`port` (0 for any), failing with the listen error rather than an unhandled event. */
export function listenOnLoopback(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
