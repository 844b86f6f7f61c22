import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** One scripted answer: status, headers and a JSON body, or `'drop'` to cut the connection unanswered. */
export type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

export interface FakeApi {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A server on loopback that answers each request with the next of `answers` (the last one
 * repeats) and keeps what it was sent, to show what a client does between tries.
 */
export async function startFakeApi(answers: Answer[]): Promise<FakeApi> {
  const seen: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const answer = answers[Math.min(seen.length, answers.length) - 1];
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      const problem = answer.status >= 400;
      res.writeHead(answer.status, {
        'content-type': problem ? 'application/problem+json' : 'application/json',
        ...answer.headers,
      });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A problem body as the API sends it. */
export function problem(status: number, code: string, title: string) {
  return {
    type: `http://127.0.0.1:8080/docs/errors#${code}`,
    title,
    status,
    detail: title,
    code,
    request_id: '00000000-0000-4000-8000-000000000000',
  };
}
