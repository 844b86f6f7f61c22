import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress } from './webhook-target.ts';

// Taken from the module objects, not imported: an ESM import of node:http builds its namespace,
// which reads the lazy WebSocket and MessageEvent exports and so loads Node's fetch
// implementation (undici, about 3 MB) into every process, fetch or not.
const { request: httpRequest } = process.getBuiltinModule('node:http');
const { request: httpsRequest } = process.getBuiltinModule('node:https');

export interface Delivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What one attempt got: a status code, or why there was none. */
export type AttemptResult =
  | { statusCode: number; error: string | null }
  | { statusCode: null; error: string };

export type SendDelivery = (delivery: Delivery) => Promise<AttemptResult>;

/** Most of a receiver's answer that is read; the rest is dropped (only the status counts). */
const ANSWER_BYTES = 4096;

/**
 * POSTs one attempt. It gives up after `timeoutMs` (CONTRACT §9: 15 s) whatever the receiver
 * does, never follows a redirect (a 3xx is a failed attempt), and connects only to addresses
 * the SSRF guard allows, checked when the name is resolved for this very connection.
 */
export function createSender(options: { timeoutMs: number; allowPrivate: boolean }): SendDelivery {
  const lookup = guardedLookup(options.allowPrivate);
  return (delivery) =>
    new Promise<AttemptResult>((resolve) => {
      const url = new URL(delivery.url);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
        resolve({ statusCode: null, error: `refused: ${host} is a loopback, private or link-local address` });
        return;
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = send(url, {
        method: 'POST',
        headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body)) },
        lookup: lookup as never,
        agent: false,
      });
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${options.timeoutMs / 1000} s` });
        req.destroy();
      }, options.timeoutMs);
      req.on('response', (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_BYTES) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const outcome = (): AttemptResult => {
          if (status >= 200 && status < 300) return { statusCode: status, error: null };
          if (status >= 300 && status < 400)
            return { statusCode: status, error: 'redirects are not followed' };
          return { statusCode: status, error: `receiver answered ${status}` };
        };
        res.on('end', () => finish(outcome()));
        res.on('close', () => finish(outcome()));
        res.on('error', () => finish(outcome()));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        finish({ statusCode: null, error: error.message || error.code || 'connection failed' });
      });
      req.end(delivery.body);
    });
}
