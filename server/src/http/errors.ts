export type ErrorCode =
  'bad_request' | 'unauthorized' | 'not_found' | 'misdirected' | 'payload_too_large' | 'internal';

/** An error answered with its status, a stable code and a human message (never a stack). */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** An upload whose file cannot be parsed: answered with HTTP 200 and the E0001 envelope. */
export class ParseFailureError extends Error {
  override name = 'ParseFailureError';
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'bad_request', message);
}

export function unauthorized(message: string): ApiError {
  return new ApiError(401, 'unauthorized', message);
}

export function notFound(message: string): ApiError {
  return new ApiError(404, 'not_found', message);
}

export function payloadTooLarge(message: string): ApiError {
  return new ApiError(413, 'payload_too_large', message);
}
