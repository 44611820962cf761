import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RequestValidationError } from '../spec.ts';
import { failure, parseFailure, type FailureEnvelope } from './envelope.ts';
import { ApiError, ParseFailureError, type ErrorCode } from './errors.ts';

export interface ErrorResponse {
  status: number;
  body: FailureEnvelope;
}

/** Every error becomes a JSON envelope with a stable code; stacks stay in the log. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(status).type('application/json; charset=utf-8').send(body);
  });
}

/**
 * Fastify's `frameworkErrors`: errors raised while routing, before any hook (a malformed
 * percent-encoding, a path segment over `maxParamLength`). They get the same envelope as every
 * other error; no route was matched, so nothing of the archive is read.
 */
export function frameworkErrorHandler() {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const response = toErrorResponse(error);
    void reply
      .status(response.status)
      .header('x-content-type-options', 'nosniff')
      .type('application/json; charset=utf-8')
      .send(response.body);
  };
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not even parse (bad HTTP, headers or
 * address over the size limit, too slow). Answered with the envelope, and not logged: the error
 * carries the raw request bytes, Authorization header included.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'the request headers (or its address) are larger than the server accepts']
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify(failure('bad_request', message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) return respond(error.status, error.code, error.message);
  if (error instanceof RequestValidationError) {
    // A path that breaks the contract's constraints names nothing that can exist.
    return error.part === 'path'
      ? respond(404, 'not_found', error.message)
      : respond(400, 'bad_request', error.message);
  }
  if (error instanceof ParseFailureError) return { status: 200, body: parseFailure(error.message) };
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return respond(
        413,
        'payload_too_large',
        'the request body is larger than the server accepts',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return respond(400, 'bad_request', 'the request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return respond(400, 'bad_request', 'Content-Type must be application/json');
    // A path that cannot name anything, like a path that breaks the contract's constraints.
    case 'FST_ERR_BAD_URL':
      return respond(404, 'not_found', 'the address is malformed (invalid percent-encoding)');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return respond(404, 'not_found', 'the address has a path segment that is too long');
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return respond(status, codeForStatus(status), fastifyError.message ?? 'bad request');
  }
  return respond(500, 'internal', 'internal server error');
}

function respond(status: number, code: ErrorCode, message: string): ErrorResponse {
  return { status, body: failure(code, message) };
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 421) return 'misdirected';
  if (status === 413) return 'payload_too_large';
  return 'bad_request';
}
