import { useMutation, useQueryClient, type Query } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { Webpage } from './get-webpage.ts';
import { webpageKeys } from './webpage-keys.ts';

const showsWebpages = (query: Query) => query.meta?.showsWebpages === true;

/**
 * Deletes a webpage (a soft delete on the server).
 * - Lists (and views' lists) on screen refetch; the others leave the cache, so the next visit does
 *   not show the deleted page from a stale copy while refetching.
 * - Its detail and content leave the cache when nothing shows them; when something does (the page
 *   that asked for the delete, its preview), they are only marked stale, so they do not refetch
 *   (and 404) before the caller navigates away, and are garbage-collected after it did.
 */
export function useDeleteWebpage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Webpage> =>
      unwrap(apiClient.DELETE('/webpages/{id}', { params: { path: { id } } })),
    onSuccess: (_webpage, id) => {
      for (const queryKey of [
        webpageKeys.lists(),
        webpageKeys.detail(id),
        webpageKeys.content(id),
      ]) {
        queryClient.removeQueries({ queryKey, type: 'inactive' });
      }
      queryClient.removeQueries({ predicate: showsWebpages, type: 'inactive' });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: webpageKeys.detail(id), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: webpageKeys.content(id), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: webpageKeys.lists() }),
        queryClient.invalidateQueries({ predicate: showsWebpages }),
      ]);
    },
  });
}
