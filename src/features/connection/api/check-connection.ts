import { createApiClient } from '../../../api/client.ts';
import { ApiError, unwrap } from '../../../api/errors.ts';
import type { ConnectionSettings } from '../../../lib/connection-settings.ts';

export type ConnectionCheck =
  | { ok: true; message: string; server: 'folio' | 'HamsterBase'; version: string }
  | { ok: false; message: string; error: ApiError };

const CHECK_TIMEOUT_MS = 10_000;

function failure(error: ApiError): ConnectionCheck {
  let message: string;
  if (error.kind === 'http' && error.status === 401) message = 'Token refused (401)';
  else if (error.kind === 'offline') message = 'Server unreachable';
  else if (error.kind === 'invalid-response' || (error.kind === 'http' && error.status === 404)) {
    message = 'Not a compatible server';
  } else
    message = `The server answered with an error (${error.status ?? error.kind}): ${error.message}`;
  return { ok: false, message, error };
}

/**
 * Asks `GET /version` with the given settings (not the saved ones) and says what answered:
 * Folio or HamsterBase and its version, or why it failed. Never throws.
 */
export async function checkConnection(settings: ConnectionSettings): Promise<ConnectionCheck> {
  const client = createApiClient(() => settings);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
  try {
    const version: unknown = await unwrap(client.GET('/version', { signal: controller.signal }));
    if (typeof version !== 'object' || version === null) {
      return failure(
        new ApiError({ kind: 'invalid-response', message: 'No version in the answer' }),
      );
    }
    const { version: number, name } = version as { version?: unknown; name?: unknown };
    if (typeof number !== 'string' || !number) {
      return failure(
        new ApiError({ kind: 'invalid-response', message: 'No version in the answer' }),
      );
    }
    const server = name === 'folio' ? 'folio' : 'HamsterBase';
    return { ok: true, server, version: number, message: `Connected to ${server} ${number}` };
  } catch (error) {
    if (error instanceof ApiError) return failure(error);
    // The timeout's abort: nothing answered in time.
    return failure(
      new ApiError({ kind: 'offline', message: 'No answer within 10 seconds', cause: error }),
    );
  } finally {
    clearTimeout(timer);
  }
}
