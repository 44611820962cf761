import { queryOptions, type QueryKey } from '@tanstack/react-query';

import { fetchOriginalFile } from '../../../api/fetch-original-file.ts';
import type { OriginalFile } from '../../../api/original-file.ts';
import { webpageKeys } from './webpage-keys.ts';

/**
 * The original file (`GET /webpages/{id}/content`) as a Blob: the one query of it. The routes hand
 * it to the preview, so "Download original" after the preview loaded reuses its copy. The cache
 * holds a handle to the bytes, never a copy of them as a string.
 */
export function webpageContentOptions(id: string) {
  // Typed as any key: the preview takes this query without knowing the webpages feature's keys.
  const queryKey: QueryKey = webpageKeys.content(id);
  return queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<OriginalFile> => fetchOriginalFile(id, signal),
    // The id is the sha256 of the bytes: the content of an id never changes.
    staleTime: Infinity,
    // Archives can weigh megabytes: do not keep them long once no preview shows them.
    gcTime: 60_000,
  });
}
