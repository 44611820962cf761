import { useMutation, useQueryClient } from '@tanstack/react-query';

import { showToast } from '../../../components/toast-store.ts';
import { displayTitle } from '../../../lib/display.ts';
import { formatBytes } from '../../../lib/display.ts';
import { downloadFileName } from '../../../lib/file-name.ts';
import { isTheOriginal, readOriginalFile, type OriginalFile } from '../../../api/original-file.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { hostOf } from '../../../lib/urls.ts';
import type { WebpageExt } from '../filters.ts';
import type { Webpage } from './get-webpage.ts';
import { webpageContentOptions } from './get-webpage-content.ts';
import { webpageKeys } from './webpage-keys.ts';

const MEDIA_TYPES: Record<WebpageExt, string> = {
  html: 'text/html',
  mhtml: 'multipart/related',
  webarchive: 'application/x-webarchive',
};

/** The file name of a webpage's download: its title (else its host) and its format's extension. */
export function originalFileName(webpage: Pick<Webpage, 'title' | 'link' | 'ext'>): string {
  return downloadFileName(webpage.title, webpage.ext, hostOf(webpage.link) ?? 'webpage');
}

export interface DownloadedFile {
  name: string;
  size: number;
}

/**
 * Downloads the original file of a webpage (the preview's cached copy when it has one) and says
 * so with its name and size, or why it could not.
 */
export function useDownloadOriginal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      webpage: Pick<Webpage, 'id' | 'title' | 'link' | 'ext'>,
    ): Promise<DownloadedFile> => {
      // The preview's copy when it is the file itself (any page but an MHTML one from Folio's
      // server, which the preview gets with its parts in binary).
      const previewed = queryClient.getQueryData<OriginalFile>(webpageKeys.previewFile(webpage.id));
      const file =
        previewed !== undefined && isTheOriginal(previewed)
          ? previewed
          : await queryClient.fetchQuery(webpageContentOptions(webpage.id));
      const bytes = await readOriginalFile(file);
      const name = originalFileName(webpage);
      saveFile(bytes, name, MEDIA_TYPES[webpage.ext]);
      return { name, size: bytes.length };
    },
    onSuccess: ({ name, size }) =>
      showToast({ tone: 'success', message: `Downloaded “${name}” (${formatBytes(size)})` }),
    onError: (error, webpage) =>
      showToast({
        tone: 'error',
        message: `Could not download “${displayTitle(webpage)}”: ${error.message}`,
      }),
  });
}
