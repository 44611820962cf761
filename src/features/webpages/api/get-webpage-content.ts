import { queryOptions, type QueryKey } from '@tanstack/react-query';

import { fetchOriginalFile } from '../../../api/fetch-original-file.ts';
import { PREVIEW_FILE_ACCEPT, type OriginalFile } from '../../../api/original-file.ts';
import { webpageKeys } from './webpage-keys.ts';

/**
 * The original file (`GET /webpages/{id}/content`) as a Blob, byte for byte ("Download original").
 * The cache holds a handle to the bytes, never a copy of them as a string.
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

/**
 * The file the preview reads, which the routes hand it: an MHTML page with its parts in binary
 * where the server offers it (Folio's), else the original as above. Its own cache entry, as the
 * two can differ; "Download original" reuses it when it is the file itself.
 */
export function webpagePreviewFileOptions(id: string) {
  const queryKey: QueryKey = webpageKeys.previewFile(id);
  return queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<OriginalFile> =>
      fetchOriginalFile(id, signal, PREVIEW_FILE_ACCEPT),
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
