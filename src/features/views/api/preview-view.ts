import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { isApiError, unwrap } from '../../../api/errors.ts';
import type { components } from '../../../api/schema.gen.ts';
import type { ViewWebpage } from './list-view-webpages.ts';
import { viewKeys } from './view-keys.ts';

/** What selects a view's webpages: a create request without its title and description. */
export type ViewPreviewInput = Omit<
  components['schemas']['CreateViewRequest'],
  'title' | 'description'
>;

/** How many webpages a preview shows. */
export const PREVIEW_SIZE = 10;

export interface ViewPreview {
  /** How many webpages the view would show (its limit applied). */
  count: number;
  /** The first of them, in the view's order. */
  webpages: ViewWebpage[];
  /**
   * `server`: Folio's preview operation; `temporary-view`: the server has none (HamsterBase), so
   * a temporary view was created, read and deleted.
   */
  via: 'server' | 'temporary-view';
}

/** The title of the short-lived view a server without the preview operation needs. */
export const TEMPORARY_VIEW_TITLE = 'Folio preview (temporary)';

/**
 * Whether the server lacks an operation: a 404 or 405, or HamsterBase's answer to unknown paths
 * under `/public/api` (its web UI's HTML with a 200, which is not the JSON envelope).
 */
export function lacksOperation(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === 'invalid-response') return true;
  return error.kind === 'http' && (error.status === 404 || error.status === 405);
}

/** Creates a view, reads its webpages and deletes it again, whatever happened in between. */
async function previewWithTemporaryView(
  input: ViewPreviewInput,
  signal: AbortSignal,
): Promise<ViewPreview> {
  const view = await unwrap(
    apiClient.POST('/views', { body: { ...input, title: TEMPORARY_VIEW_TITLE }, signal }),
  );
  try {
    const { webpages } = await unwrap(
      apiClient.GET('/views/{view_id}/webpages', {
        params: { path: { view_id: view.id } },
        signal,
      }),
    );
    return {
      count: webpages.length,
      webpages: webpages.slice(0, PREVIEW_SIZE),
      via: 'temporary-view',
    };
  } finally {
    // Not tied to the signal: the temporary view must go even when the preview is no longer wanted.
    await unwrap(
      apiClient.DELETE('/views/{view_id}', { params: { path: { view_id: view.id } } }),
    ).catch(() => undefined);
  }
}

/**
 * What an unsaved view would show: Folio's `POST /views/preview`, else (a server without it) a
 * temporary view.
 */
export function viewPreviewOptions(input: ViewPreviewInput) {
  return queryOptions({
    queryKey: viewKeys.preview(input),
    queryFn: async ({ signal }): Promise<ViewPreview> => {
      try {
        const preview = await unwrap(
          apiClient.POST('/views/preview', {
            // The title is required by the contract and means nothing here.
            body: { ...input, title: 'Preview' },
            signal,
          }),
        );
        return { ...preview, via: 'server' };
      } catch (error) {
        if (!lacksOperation(error)) throw error;
        return previewWithTemporaryView(input, signal);
      }
    },
    // Webpage changes make a preview stale like any list of webpages.
    meta: { showsWebpages: true },
  });
}
