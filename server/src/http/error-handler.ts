import type { FastifyError, FastifyInstance } from 'fastify';
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
  if (status === 413) return 'payload_too_large';
  return 'bad_request';
}
