// Reads a webpage's original file through the app's client (base URL, token, 401 tracking) as a
// Blob: neither parsed nor held as a string on the main thread (see `original-file.ts`).
import { loadConnectionSettings, normalizeBaseUrl } from '../lib/connection-settings.ts';
import { apiClient } from './client.ts';
import { answered } from './errors.ts';
import {
  ORIGINAL_FILE_ACCEPT,
  originalFileEncoding,
  partLinksBase,
  type OriginalFile,
} from './original-file.ts';
import { preloadedImageLinks } from './preload-part-links.ts';

/** Where the archive's part links live, if this app's previews can load them (`partLinksBase`). */
export function previewPartsBase(): string | null {
  const root = normalizeBaseUrl(loadConnectionSettings().baseUrl);
  return root === null ? null : partLinksBase(`${root}/`, globalThis.location?.origin);
}

export async function fetchOriginalFile(
  id: string,
  signal?: AbortSignal,
  accept: string = ORIGINAL_FILE_ACCEPT,
): Promise<OriginalFile> {
  const { data, response } = await answered(
    apiClient.GET('/webpages/{id}/content', {
      params: { path: { id } },
      headers: { Accept: accept },
      parseAs: 'blob',
      signal,
    }),
  );
  const encoding = originalFileEncoding(response.headers.get('content-type'));
  const blob = data ?? new Blob([]);
  if (encoding !== 'linked-mhtml') return { encoding, blob };
  // Only asked for when the app can load the links (`previewPartsBase`).
  const partsBase = previewPartsBase();
  if (partsBase === null) throw new Error('The server sent part links this app cannot load');
  const links = response.headers.get('link');
  const preload = links === null ? [] : preloadedImageLinks(links, response.url, partsBase);
  return { encoding, blob, partsBase, preload };
}
