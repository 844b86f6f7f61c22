import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** The status of each next answer, in order; 200 once the script is spent. */
  script(statuses: number[]): void;
  /** Answers with the status `choose` gives for a request, when it gives one (before the script). */
  answer(choose: ((r: Received) => number | undefined) | undefined): void;
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real receiver on 127.0.0.1 that keeps every request and answers as scripted. */
export async function startReceiver(
  options: { redirectTo?: string; port?: number } = {},
): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let statuses: number[] = [];
  let choose: ((r: Received) => number | undefined) | undefined;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body };
      received.push(request);
      const status = choose?.(request) ?? statuses.shift() ?? 200;
      if (status >= 300 && status < 400 && options.redirectTo) res.setHeader('location', options.redirectTo);
      res.statusCode = status;
      res.end('ok');
      for (const w of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    script(next) {
      statuses = [...next];
    },
    answer(fn) {
      choose = fn;
    },
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(received) }));
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
