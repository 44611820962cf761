// Reads a webpage's original file through the app's client (base URL, token, 401 tracking) as a
// Blob: neither parsed nor held as a string on the main thread (see `original-file.ts`).
import { apiClient } from './client.ts';
import { answered } from './errors.ts';
import { ORIGINAL_FILE_ACCEPT, originalFileEncoding, type OriginalFile } from './original-file.ts';

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
  return {
    encoding: originalFileEncoding(response.headers.get('content-type')),
    blob: data ?? new Blob([]),
  };
}
