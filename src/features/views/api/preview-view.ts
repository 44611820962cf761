import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { callOptional } from '../../../api/server-capabilities.ts';
import { listSelectionOf, previewFromList } from './preview-from-list.ts';
import type { ViewPreview, ViewPreviewInput } from './types.ts';
import { viewKeys } from './view-keys.ts';

/** How many webpages a preview shows. */
export const PREVIEW_SIZE = 10;

/**
 * What an unsaved view would show: Folio's `POST /views/preview`; else (a server without it, which
 * is asked once) read from the list when the filters map onto its parameters. Never a write.
 */
export function viewPreviewOptions(input: ViewPreviewInput) {
  return queryOptions({
    queryKey: viewKeys.preview(input),
    queryFn: async ({ signal, client }): Promise<ViewPreview> => {
      const preview = await callOptional(client, 'view-preview', () =>
        unwrap(
          apiClient.POST('/views/preview', {
            // The title is required by the contract and means nothing here.
            body: { ...input, title: 'Preview' },
            signal,
          }),
        ),
      );
      if (preview) return { ...preview, atLeast: false, via: 'server' };
      const selection = listSelectionOf(input);
      if (!selection) return { via: 'unavailable' };
      return { ...(await previewFromList(selection, input, PREVIEW_SIZE, signal)), via: 'list' };
    },
    // Webpage changes make a preview stale like any list of webpages.
    meta: { showsWebpages: true },
  });
}
