import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { showDone, showToast } from '../../../components/toast-store.ts';
import { withoutId } from '../view-draft.ts';
import { createViewRequest, viewTitle, type CreateViewInput } from './create-view.ts';
import type { WebpagesView } from './list-views.ts';
import { viewKeys } from './view-keys.ts';

/** What creates the same view again: every setting and filter (the server gives a new id). */
export function recreateRequest(view: WebpagesView): CreateViewInput {
  return {
    title: view.title,
    description: view.description,
    sort: view.sort,
    limit: view.limit,
    enableLimit: view.enableLimit,
    match: view.match,
    filters: view.filters.map(withoutId),
  };
}

/** A view as the server answers it (HamsterBase may answer a delete with less). */
function isView(value: unknown): value is WebpagesView {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WebpagesView).title === 'string' &&
    Array.isArray((value as WebpagesView).filters)
  );
}

/** Undo of a delete: the view is created again with the same definition. */
export async function restoreView(queryClient: QueryClient, view: WebpagesView): Promise<void> {
  const title = viewTitle(view);
  try {
    const restored = await createViewRequest(recreateRequest(view));
    queryClient.setQueryData(viewKeys.detail(restored.id), restored);
    showToast({ tone: 'success', message: `Restored the view “${title}”` });
  } catch (error) {
    showToast({
      tone: 'error',
      message: `Could not restore the view “${title}”: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  await queryClient.invalidateQueries({ queryKey: viewKeys.list() });
}

/**
 * Deletes a view. A message says so, with Undo, which creates the view again with the same
 * settings and filters (under a new address).
 */
export function useDeleteView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<WebpagesView> =>
      unwrap(apiClient.DELETE('/views/{view_id}', { params: { path: { view_id: id } } })),
    onMutate: (id) =>
      // What the page showed, in case the server's answer is not the whole view.
      queryClient.getQueryData<WebpagesView>(viewKeys.detail(id)) ??
      queryClient.getQueryData<WebpagesView[]>(viewKeys.list())?.find((view) => view.id === id),
    onSuccess: (answer, id, cached) => {
      const view = isView(answer) ? answer : cached;
      if (view) {
        const message = `Deleted the view “${viewTitle(view)}”`;
        showDone(message, () => void restoreView(queryClient, view));
      } else showToast({ message: 'Deleted the view', tone: 'success' });
      // Marked stale, not refetched: a mounted view page must not 404 before the user leaves it.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: viewKeys.detail(id), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: viewKeys.list() }),
      ]);
    },
  });
}
