import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../shared/errors.ts';
import { PROBLEM_CONTENT_TYPE, problemOf, sendProblem } from './problem.ts';

// Not imported: an ESM import of node:http loads Node's fetch implementation (webhook-sender.ts).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * Answers of the HTTP layer itself, in the contract's form: an X-Request-ID and a problem
 * document, like every other answer.
 *
 * Router errors reach `frameworkErrors` with a request: a path that is not valid percent-encoding
 * or a path segment past the router's length limit names no resource, so it is a 404 like any
 * other unknown id. Errors of the HTTP parser (headers over the limit, a request that does not
 * arrive in time, bytes that are not HTTP) happen before there is a request object: they are
 * written to the socket directly, and the connection is closed as Node would close it.
 */
export function frameworkErrorHandler(publicBaseUrl: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const detail =
      error.code === 'FST_ERR_BAD_URL'
        ? 'The path is not valid percent-encoding, so it names no resource'
        : 'No resource has an id of this length';
    // The hooks that set it on other answers do not run for a request the router refused.
    reply.header('x-request-id', request.id);
    return sendProblem(request, reply, new AppError('not_found', detail), publicBaseUrl);
  };
}

export function clientErrorHandler(publicBaseUrl: string) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const code: ErrorCode =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? 'headers_too_large'
          : 'malformed_request';
    const detail = {
      request_timeout: 'The request did not arrive completely in time',
      headers_too_large: 'The request headers exceed the size the server reads',
      malformed_request: 'The request is not valid HTTP/1.1',
    }[code as 'request_timeout' | 'headers_too_large' | 'malformed_request'];
    const requestId = randomUUID();
    const problem = problemOf(new AppError(code, detail), requestId, publicBaseUrl);
    const body = JSON.stringify(problem);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
          `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-ID: ${requestId}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroy(error);
  };
}
