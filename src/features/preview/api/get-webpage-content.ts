import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { previewKeys } from './preview-keys.ts';

/** The original file of a webpage as base64 (`GET /webpages/{id}/content`). */
export function webpageContentOptions(id: string) {
  return queryOptions({
    queryKey: previewKeys.content(id),
    queryFn: ({ signal }): Promise<string> =>
      unwrap(apiClient.GET('/webpages/{id}/content', { params: { path: { id } }, signal })),
    // The id is the sha256 of the bytes: the content of an id never changes.
    staleTime: Infinity,
    // Archives can weigh megabytes: do not keep them long once no preview shows them.
    gcTime: 60_000,
  });
}
