import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { WebpagesView } from './list-views.ts';
import { viewKeys } from './view-keys.ts';

export function useDeleteView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<WebpagesView> =>
      unwrap(apiClient.DELETE('/views/{view_id}', { params: { path: { view_id: id } } })),
    onSuccess: (_view, id) => {
      // Marked stale, not refetched: a mounted view page must not 404 before the user leaves it.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: viewKeys.detail(id), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: viewKeys.list() }),
      ]);
    },
  });
}
