import { queryOptions, type QueryKey } from '@tanstack/react-query';

import { fetchOriginalFile, previewPartsBase } from '../../../api/fetch-original-file.ts';
import {
  LINKED_PREVIEW_FILE_ACCEPT,
  ORIGINAL_FILE_ACCEPT,
  PREVIEW_FILE_ACCEPT,
  type OriginalFile,
} from '../../../api/original-file.ts';
import { webpageKeys } from './webpage-keys.ts';

/**
 * A query of `GET /webpages/{id}/content` as a Blob: the original, or the file the preview reads.
 * The cache holds a handle to the bytes, never a copy of them as a string.
 */
function fileOptions(id: string, preview: boolean) {
  // Typed as any key: the preview takes this query without knowing the webpages feature's keys.
  const queryKey: QueryKey = preview ? webpageKeys.previewFile(id) : webpageKeys.content(id);
  return queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<OriginalFile> =>
      fetchOriginalFile(id, signal, preview ? previewAccept() : ORIGINAL_FILE_ACCEPT),
    // The id is the sha256 of the bytes: the content of an id never changes.
    staleTime: Infinity,
    // Archives can weigh megabytes: do not keep them long once no preview shows them.
    gcTime: 60_000,
  });
}

/** What the preview asks for: its large parts as links where it can load them. */
function previewAccept(): string {
  return previewPartsBase() === null ? PREVIEW_FILE_ACCEPT : LINKED_PREVIEW_FILE_ACCEPT;
}

/** The original file, byte for byte ("Download original"). */
export function webpageContentOptions(id: string) {
  return fileOptions(id, false);
}

/**
 * The file the preview reads, which the routes hand it: an MHTML page with its parts in binary, its
 * large ones as links, where the server offers it (Folio's), else the original as above. Its own cache entry, as the
 * two can differ; "Download original" reuses it when it is the file itself.
 */
export function webpagePreviewFileOptions(id: string) {
  return fileOptions(id, true);
}
