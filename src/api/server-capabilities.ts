// What the connected server can do, learnt once per base URL and remembered while the app runs: a
// server does not gain or lose an operation between two menu opens. Folio's server has its
// extensions (`/facets`, `POST /views/preview`); a HamsterBase server has not. Kept in the query
// cache (never stale, never collected) under the base URL, so that a new connection asks again.
import { queryOptions, type QueryClient } from '@tanstack/react-query';

import { loadConnectionSettings } from '../lib/connection-settings.ts';
import { apiClient } from './client.ts';
import { isApiError, unwrap } from './errors.ts';

/** Folio's extensions of the HamsterBase API that a client may find missing. */
export type OptionalOperation = 'facets' | 'view-preview' | 'highlights';

const forever = { staleTime: Infinity, gcTime: Infinity } as const;

export const serverKeys = {
  all: ['server'] as const,
  of: (baseUrl: string) => [...serverKeys.all, baseUrl] as const,
  identity: (baseUrl: string) => [...serverKeys.of(baseUrl), 'identity'] as const,
  lacks: (baseUrl: string, operation: OptionalOperation) =>
    [...serverKeys.of(baseUrl), 'lacks', operation] as const,
};

/**
 * Whether the server lacks an operation: a 404 or 405, or HamsterBase's answer to unknown paths
 * under `/public/api` (its web UI's HTML with a 200, which is not the JSON envelope).
 */
export function lacksOperation(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === 'invalid-response') return true;
  return error.kind === 'http' && (error.status === 404 || error.status === 405);
}

/**
 * Calls an optional operation unless the connected server is known to lack it. Resolves with its
 * answer, or with `undefined` when the server lacks it: remembered, so that the next call asks no
 * more. Other errors are thrown.
 */
export async function callOptional<T>(
  client: QueryClient,
  operation: OptionalOperation,
  call: () => Promise<T>,
): Promise<T | undefined> {
  const key = serverKeys.lacks(loadConnectionSettings().baseUrl, operation);
  if (client.getQueryData<boolean>(key) === true) return undefined;
  try {
    return await call();
  } catch (error) {
    if (!lacksOperation(error)) throw error;
    client.setQueryDefaults(serverKeys.all, forever);
    client.setQueryData<boolean>(key, true);
    return undefined;
  }
}

export interface ServerIdentity {
  /** Folio's own server (its `/version` says `name: "folio"`); anything else is a HamsterBase. */
  folio: boolean;
}

/** Which server answers at the saved connection (`GET /version`), asked once per base URL. */
export function serverIdentityOptions(baseUrl: string = loadConnectionSettings().baseUrl) {
  return queryOptions({
    queryKey: serverKeys.identity(baseUrl),
    queryFn: async ({ signal }): Promise<ServerIdentity> => {
      const data = await unwrap(apiClient.GET('/version', { signal }));
      return { folio: data.name === 'folio' };
    },
    ...forever,
  });
}
