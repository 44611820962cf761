// The one seam between HTTP answers and the app: a value, or an ApiError saying what went wrong.

export type ApiErrorKind = 'http' | 'parse' | 'offline' | 'invalid-response';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  /** HTTP status, for `http` errors. */
  status?: number;
  /** The server's error code: `E0001` for a file that cannot be parsed, Folio's stable codes. */
  code?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly code?: string;

  constructor({ kind, message, status, code, cause }: ApiErrorInit) {
    super(message, { cause });
    this.kind = kind;
    this.status = status;
    this.code = code;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The token is missing or refused: the user should go to the settings. */
export function isUnauthorized(error: unknown): boolean {
  return isApiError(error) && error.kind === 'http' && error.status === 401;
}

/** Errors the settings page can fix: a refused token, an unreachable or foreign server. */
export function isConnectionProblem(error: unknown): boolean {
  return (
    isUnauthorized(error) ||
    (isApiError(error) && (error.kind === 'offline' || error.kind === 'invalid-response'))
  );
}

/** What an openapi-fetch call resolves to (the part this module reads). */
export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The `data` of a success envelope type. */
export type EnvelopeData<T> = T extends { success: true; data: infer D } ? D : never;

const MAX_MESSAGE_LENGTH = 300;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The human message of a failed answer: JSON `message`, else a short text body, else the status. */
function httpMessage(body: unknown, response: Response): string {
  if (isRecord(body) && typeof body.message === 'string' && body.message.trim()) {
    return body.message.trim().slice(0, MAX_MESSAGE_LENGTH);
  }
  if (typeof body === 'string') {
    const text = body.trim();
    // An HTML page (a proxy's error page, a web UI) says nothing useful as text.
    if (text && !text.startsWith('<')) return text.slice(0, MAX_MESSAGE_LENGTH);
  }
  const statusText = response.statusText.trim();
  return statusText ? `HTTP ${response.status} ${statusText}` : `HTTP ${response.status}`;
}

function isAbort(error: unknown): boolean {
  // Not `instanceof DOMException`: realms differ (jsdom, workers) and some fetch polyfills throw
  // plain errors named AbortError.
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

/**
 * Awaits an openapi-fetch call and returns the `data` of the `{success: true, data}` envelope, or
 * throws an ApiError:
 * - 200 with `{success: false, error, message}` → kind `parse` with the code (E0001);
 * - any other status → kind `http` with the status and the server's message (JSON or text body);
 * - fetch failing (network down, DNS, CORS refused) → kind `offline`;
 * - a 2xx answer that is not the envelope (HTML, plain text, other JSON) → kind `invalid-response`.
 * An aborted request rethrows the AbortError untouched (TanStack Query expects it).
 */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<EnvelopeData<T>> {
  const { data } = await answered(call);
  return envelopeData(data) as EnvelopeData<T>;
}

/**
 * Awaits an openapi-fetch call and returns its 2xx answer as it is (for bodies that are not read as
 * JSON, e.g. a file), throwing the ApiError of `unwrap` when it failed.
 */
export async function answered<T>(call: Promise<FetchResult<T>>): Promise<FetchResult<T>> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (error) {
    if (isAbort(error) || isApiError(error)) throw error;
    if (error instanceof TypeError) {
      throw new ApiError({ kind: 'offline', message: 'Server unreachable', cause: error });
    }
    if (error instanceof SyntaxError) {
      throw new ApiError({
        kind: 'invalid-response',
        message: 'The server answered with something that is not JSON',
        cause: error,
      });
    }
    throw new ApiError({
      kind: 'invalid-response',
      message: error instanceof Error ? error.message : 'Unexpected answer from the server',
      cause: error,
    });
  }

  const { error, response } = result;
  if (!response.ok) {
    const code = isRecord(error) && typeof error.error === 'string' ? error.error : undefined;
    throw new ApiError({
      kind: 'http',
      status: response.status,
      message: httpMessage(error, response),
      code,
    });
  }
  return result;
}

/** The `data` of a 2xx answer's `{success: true, data}` envelope, or the ApiError of `unwrap`. */
export function envelopeData(body: unknown): unknown {
  if (isRecord(body) && body.success === true && 'data' in body) return body.data;
  if (isRecord(body) && body.success === false) {
    const code = typeof body.error === 'string' ? body.error : undefined;
    const message =
      typeof body.message === 'string' && body.message
        ? body.message
        : 'The server refused the request';
    throw new ApiError({ kind: 'parse', message, code });
  }
  throw new ApiError({
    kind: 'invalid-response',
    message: 'The server answered without the expected {success, data} envelope',
  });
}
