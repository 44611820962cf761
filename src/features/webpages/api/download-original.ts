import { useMutation, useQueryClient } from '@tanstack/react-query';

import { downloadFileName } from '../../../lib/file-name.ts';
import { decodeBase64 } from '../../../lib/formats/bytes.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { hostOf } from '../../../lib/urls.ts';
import type { WebpageExt } from '../filters.ts';
import type { Webpage } from './get-webpage.ts';
import { webpageContentOptions } from './get-webpage-content.ts';

const MEDIA_TYPES: Record<WebpageExt, string> = {
  html: 'text/html',
  mhtml: 'multipart/related',
  webarchive: 'application/x-webarchive',
};

/** The file name of a webpage's download: its title (else its host) and its format's extension. */
export function originalFileName(webpage: Pick<Webpage, 'title' | 'link' | 'ext'>): string {
  return downloadFileName(webpage.title, webpage.ext, hostOf(webpage.link) ?? 'webpage');
}

/** Downloads the original file of a webpage (the preview's cached copy when it has one). */
export function useDownloadOriginal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (webpage: Pick<Webpage, 'id' | 'title' | 'link' | 'ext'>) => {
      const base64 = await queryClient.fetchQuery(webpageContentOptions(webpage.id));
      const bytes = decodeBase64(base64) as Uint8Array<ArrayBuffer>;
      saveFile(bytes, originalFileName(webpage), MEDIA_TYPES[webpage.ext]);
    },
  });
}
