import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { showToast } from '../../../components/toast-store.ts';
import { sameFilters, type CreateViewRequest } from '../view-draft.ts';
import { viewTitle } from './create-view.ts';
import type { WebpagesView } from './list-views.ts';
import { viewKeys } from './view-keys.ts';

export interface SaveViewVariables {
  /** The view as it was when the editor opened. */
  original: WebpagesView;
  /** Every field of the view as the user wants it. */
  request: CreateViewRequest;
}

export interface SaveViewResult {
  view: WebpagesView;
  /**
   * The server kept the old filters (HamsterBase ignores them in a PATCH), so the view was
   * created again with the new ones and the old one deleted: it has a new id.
   */
  recreated: boolean;
  /** Something to tell the user although the save worked (the old view could not be deleted). */
  warning?: string;
}

/** A save that stopped part-way; `saved` says what the server has now. */
export class SaveViewError extends Error {
  override name = 'SaveViewError';

  constructor(
    message: string,
    readonly saved: WebpagesView | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Saves an edited view. PATCH sends every field (the filters only when they changed). Folio's
 * server applies the filters; HamsterBase answers with the old ones. Then the view is created
 * again with the new filters and the same settings, and the old one deleted. Nothing is lost when
 * a step fails: if the create fails the old view is still there (with the new title and settings),
 * and if the delete fails both views exist and the result carries a warning.
 */
export async function saveView({ original, request }: SaveViewVariables): Promise<SaveViewResult> {
  const filters = request.filters ?? [];
  const filtersChanged = !sameFilters(original.filters, filters);
  const { filters: _filters, ...fields } = request;
  const patched = await unwrap(
    apiClient.PATCH('/views/{view_id}', {
      params: { path: { view_id: original.id } },
      body: filtersChanged ? { ...fields, filters } : fields,
    }),
  );
  if (!filtersChanged || sameFilters(patched.filters, filters)) {
    return { view: patched, recreated: false };
  }

  let created: WebpagesView;
  try {
    created = await unwrap(apiClient.POST('/views', { body: { ...request, filters } }));
  } catch (error) {
    throw new SaveViewError(
      `The title, description, sort and limit were saved, but not the filters: this server ` +
        `cannot change a view's filters, and creating the view again with them failed ` +
        `(${reason(error)}). Your changes are still in the form; try again.`,
      patched,
      { cause: error },
    );
  }
  try {
    await unwrap(
      apiClient.DELETE('/views/{view_id}', { params: { path: { view_id: original.id } } }),
    );
    return { view: created, recreated: true };
  } catch (error) {
    return {
      view: created,
      recreated: true,
      warning:
        `The view was saved as a new view, but the old one could not be deleted ` +
        `(${reason(error)}): there are now two views called “${patched.title}”.`,
    };
  }
}

/** The message after a save: done, done as a new view, or done with a warning. */
export function savedMessage({ view, recreated, warning }: SaveViewResult): {
  message: string;
  tone: 'success' | 'info' | 'error';
} {
  if (warning) return { tone: 'error', message: warning };
  const saved = `Saved the view “${viewTitle(view)}”`;
  if (!recreated) return { tone: 'success', message: saved };
  return {
    tone: 'info',
    message:
      `${saved}. This server cannot change the filters of a view, so Folio saved it as a new ` +
      'view and deleted the old one.',
  };
}

/**
 * Saves an edited view (see `saveView`): the saved view goes into the cache, the list and the
 * view's pages are refetched, a replaced view is forgotten, and a message says what happened.
 */
export function useSaveView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveView,
    onSuccess: async (result, { original }) => {
      const { view, recreated } = result;
      showToast(savedMessage(result));
      queryClient.setQueryData(viewKeys.detail(view.id), view);
      if (recreated) {
        // Marked stale, not refetched: the old view's page may still be mounted for a moment.
        await queryClient.invalidateQueries({
          queryKey: viewKeys.detail(original.id),
          refetchType: 'none',
        });
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: viewKeys.list() }),
        queryClient.invalidateQueries({ queryKey: viewKeys.webpages(view.id) }),
      ]);
    },
    onError: (error, { original }) => {
      if (error instanceof SaveViewError && error.saved) {
        queryClient.setQueryData(viewKeys.detail(original.id), error.saved);
      }
      return queryClient.invalidateQueries({ queryKey: viewKeys.list() });
    },
  });
}
