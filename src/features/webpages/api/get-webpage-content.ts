import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { webpageKeys } from './webpage-keys.ts';

/**
 * The original file as base64. Same key, data and cache times as the preview's query, so a
 * download after the preview loaded reuses its copy.
 */
export function webpageContentOptions(id: string) {
  return queryOptions({
    queryKey: webpageKeys.content(id),
    queryFn: ({ signal }): Promise<string> =>
      unwrap(apiClient.GET('/webpages/{id}/content', { params: { path: { id } }, signal })),
    // The id is the sha256 of the bytes: the content of an id never changes.
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
