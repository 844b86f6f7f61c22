import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOnLoopback } from './loopback.ts';

/** Failures every upstream can show (UPSTREAMS.md "How upstreams break"). */
export const COMMON_MODES = [
  'hang',
  'refuse',
  'reset',
  'error-500',
  'forbidden',
  'too-many-requests',
  'html',
  'truncated-json',
] as const;
export type CommonMode = 'ok' | (typeof COMMON_MODES)[number];

export interface FakeUpstream<M extends string> {
  /** Base URL to hand to the client under test. */
  readonly url: string;
  /** HTTP requests received so far, whatever the answer. */
  readonly requests: number;
  /** Resolves once `total` requests in all have arrived (a hanging one included). */
  whenRequests(total: number): Promise<void>;
  /** Resolves once the mode is in force (`refuse` closes the listener, leaving it re-opens it). */
  setMode(mode: M): Promise<void>;
  /** Answer every request this many ms late (benchmarks, budget tests). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export interface FakeRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface Reply {
  status: number;
  body: string;
  contentType?: string;
}

interface FakeServerOptions<M extends string> {
  /** Path prefix of `url` (e.g. `/beacon/2.0`). */
  basePath: string;
  /** Answers in `ok` or in one of this upstream's own modes; common modes never reach it. */
  handle(req: FakeRequest, mode: M): Reply;
  /** Body of the `error-500` answer. */
  errorBody?: string;
  onModeChange?(mode: M): void;
}

export function json(body: unknown, status = 200): Reply {
  return { status, body: JSON.stringify(body), contentType: 'application/json' };
}

const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Maintenance</title></head>\n<body><h1>Service temporarily unavailable</h1></body></html>\n';

export async function startFakeServer<M extends string>(
  options: FakeServerOptions<M>,
): Promise<FakeUpstream<M>> {
  let mode = 'ok' as M;
  let delayMs = 0;
  let requests = 0;
  const timers = new Set<NodeJS.Timeout>();
  const waiting = new Set<{ total: number; resolve(): void }>();

  const server = createServer((req, res) => {
    requests++;
    for (const waiter of waiting) {
      if (requests >= waiter.total) {
        waiting.delete(waiter);
        waiter.resolve();
      }
    }
    const parsed = new URL(req.url ?? '/', 'http://fake');
    const request = { path: parsed.pathname, query: parsed.searchParams, headers: req.headers };
    const current = mode;
    const answer = () => respond(request, current, res);
    if (current === 'hang') return;
    if (delayMs <= 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, delayMs);
    timers.add(timer);
  });

  function respond(req: FakeRequest, current: M, res: ServerResponse): void {
    if (current === 'reset') {
      // An RST, not a clean FIN: what a dropped connection looks like to the client.
      res.socket?.resetAndDestroy();
      return;
    }
    const reply =
      commonReply(current) ?? options.handle(req, (current === 'truncated-json' ? 'ok' : current) as M);
    let body = reply.body;
    if (current === 'truncated-json') body = body.slice(0, Math.floor(body.length / 2));
    res.writeHead(reply.status, {
      'content-type': reply.contentType ?? 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      // Public relays and beacons answer any origin, so pages may read them from the browser.
      'access-control-allow-origin': '*',
      // No keep-alive: every request opens a connection, so `refuse` is a real ECONNREFUSED and not
      // a pooled socket found closed.
      connection: 'close',
    });
    res.end(body);
  }

  function commonReply(current: M): Reply | undefined {
    switch (current as string) {
      case 'error-500':
        return { status: 500, body: options.errorBody ?? 'Internal Server Error' };
      case 'forbidden':
        return json({ message: 'Forbidden' }, 403);
      case 'too-many-requests':
        return json({ message: 'Too Many Requests' }, 429);
      case 'html':
        return { status: 200, body: HTML_PAGE, contentType: 'text/html; charset=UTF-8' };
      default:
        return undefined;
    }
  }

  const listen = (port: number) => listenOnLoopback(server, port);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
      // Hanging and keep-alive sockets would otherwise hold close() open.
      server.closeAllConnections();
    });

  await listen(0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${options.basePath}`,
    get requests() {
      return requests;
    },
    whenRequests(total: number) {
      if (requests >= total) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.add({ total, resolve }));
    },
    async setMode(next: M) {
      const was = mode;
      mode = next;
      options.onModeChange?.(next);
      if (next === 'refuse' && was !== 'refuse') await stop();
      if (next !== 'refuse' && was === 'refuse') await listen(port);
    },
    setDelay(ms: number) {
      delayMs = ms;
    },
    close: stop,
  };
}
