import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';

export interface ServerVersion {
  /** "folio", or "HamsterBase" for any other server. */
  name: string;
  version: string;
}

/** Query keys of the connection feature. */
export const connectionKeys = {
  all: ['connection'] as const,
  /** The server's version, for the saved connection (its base URL and whether a token is set). */
  version: (baseUrl: string, hasToken: boolean) =>
    [...connectionKeys.all, 'version', baseUrl, hasToken] as const,
};

/** `GET /version` over the saved connection. */
export function serverVersionOptions(baseUrl: string, hasToken: boolean) {
  return queryOptions({
    queryKey: connectionKeys.version(baseUrl, hasToken),
    queryFn: async ({ signal }): Promise<ServerVersion> => {
      const data = await unwrap(apiClient.GET('/version', { signal }));
      return { name: data.name === 'folio' ? 'Folio' : 'HamsterBase', version: data.version };
    },
  });
}
