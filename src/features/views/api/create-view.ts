import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { showToast } from '../../../components/toast-store.ts';
import type { WebpagesView } from './list-views.ts';
import { viewKeys } from './view-keys.ts';

export type CreateViewInput = components['schemas']['CreateViewRequest'];

export function createViewRequest(input: CreateViewInput): Promise<WebpagesView> {
  return unwrap(apiClient.POST('/views', { body: input }));
}

/** A view's title as shown in messages. */
export function viewTitle(view: Pick<WebpagesView, 'title'>): string {
  return view.title.trim() || 'Untitled view';
}

/** Creates a view; the new view goes into the cache, the list is refetched and a message says so. */
export function useCreateView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createViewRequest,
    onSuccess: (view) => {
      queryClient.setQueryData(viewKeys.detail(view.id), view);
      showToast({ tone: 'success', message: `Created the view “${viewTitle(view)}”` });
      return queryClient.invalidateQueries({ queryKey: viewKeys.list() });
    },
  });
}
