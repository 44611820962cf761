import { queryOptions, type QueryKey } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { webpageKeys } from './webpage-keys.ts';

/**
 * The original file as base64 (`GET /webpages/{id}/content`): the one query of it. The routes hand
 * it to the preview, so "Download original" after the preview loaded reuses its copy.
 */
export function webpageContentOptions(id: string) {
  // Typed as any key: the preview takes this query without knowing the webpages feature's keys.
  const queryKey: QueryKey = webpageKeys.content(id);
  return queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<string> =>
      unwrap(apiClient.GET('/webpages/{id}/content', { params: { path: { id } }, signal })),
    // The id is the sha256 of the bytes: the content of an id never changes.
    staleTime: Infinity,
    // Archives can weigh megabytes: do not keep them long once no preview shows them.
    gcTime: 60_000,
  });
}
