import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { callOptional } from '../../../api/server-capabilities.ts';
import { listSelectionOf, previewFromList } from './preview-from-list.ts';
import { viewKeys } from './view-keys.ts';

/** What selects a view's webpages: a create request without its title and description. */
export type ViewPreviewInput = Omit<
  components['schemas']['CreateViewRequest'],
  'title' | 'description'
>;

/** How many webpages a preview shows. */
export const PREVIEW_SIZE = 10;

/** A webpage of the preview: what its row shows. */
export type PreviewWebpage = Pick<
  components['schemas']['WebpagesListItem'],
  'id' | 'title' | 'link'
>;

export type ViewPreview =
  | {
      /**
       * `server`: Folio's preview operation; `list`: the server has none (HamsterBase), and the
       * filters map onto the list's parameters.
       */
      via: 'server' | 'list';
      /** How many webpages the view would show (its limit applied). */
      count: number;
      /** At least `count` match: the list was read up to a bound. */
      atLeast: boolean;
      /** The first of them, in the view's order. */
      webpages: PreviewWebpage[];
    }
  /** The server has no preview and the filters have no list parameters: no preview. */
  | { via: 'unavailable' };

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
