import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-ID when it is valid, else a fresh UUID; the request goes on either way. */
export function requestIdOf(request: IncomingMessage): string {
  const value = request.headers['x-request-id'];
  return typeof value === 'string' && VALID_REQUEST_ID.test(value) ? value : randomUUID();
}
