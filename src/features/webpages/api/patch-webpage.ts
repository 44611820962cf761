import {
  useMutation,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../api/schema.gen.ts';
import type { Webpage } from './get-webpage.ts';
import type { WebpageListPage } from './list-webpages.ts';
import { webpageKeys } from './webpage-keys.ts';

export type WebpagePatch = components['schemas']['PatchWebPageRequest'];

export interface PatchWebpageVariables {
  id: string;
  patch: WebpagePatch;
}

type Snapshot = [QueryKey, unknown];

/**
 * Marks every query that shows webpages as stale after a change: the feature's lists and the
 * webpage's detail, and other features' queries flagged with `meta.showsWebpages` (a view's pages).
 * The stored content is never refetched: a patch does not change it.
 */
export function invalidateWebpage(queryClient: QueryClient, id: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: webpageKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: webpageKeys.detail(id) }),
    queryClient.invalidateQueries({ predicate: (query) => query.meta?.showsWebpages === true }),
  ]);
}

/**
 * Edits a webpage's metadata. `liked` and `read` are cheap, reversible toggles: they show at once in
 * the detail and every cached list, and roll back if the server refuses.
 */
export function usePatchWebpage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: PatchWebpageVariables): Promise<Webpage> =>
      unwrap(apiClient.PATCH('/webpages/{id}', { params: { path: { id } }, body: patch })),
    onMutate: async ({ id, patch }): Promise<Snapshot[]> => {
      const toggles: Pick<WebpagePatch, 'liked' | 'read'> = {};
      if (patch.liked !== undefined) toggles.liked = patch.liked;
      if (patch.read !== undefined) toggles.read = patch.read;
      if (!Object.keys(toggles).length) return [];

      await Promise.all([
        queryClient.cancelQueries({ queryKey: webpageKeys.detail(id) }),
        queryClient.cancelQueries({ queryKey: webpageKeys.lists() }),
      ]);
      const snapshots: Snapshot[] = [
        [webpageKeys.detail(id), queryClient.getQueryData(webpageKeys.detail(id))],
        ...queryClient.getQueriesData<WebpageListPage>({ queryKey: webpageKeys.lists() }),
      ];
      queryClient.setQueryData<Webpage>(webpageKeys.detail(id), (old) =>
        old ? { ...old, ...toggles } : old,
      );
      queryClient.setQueriesData<WebpageListPage>({ queryKey: webpageKeys.lists() }, (old) =>
        old
          ? {
              ...old,
              items: old.items.map((item) => (item.id === id ? { ...item, ...toggles } : item)),
            }
          : old,
      );
      return snapshots;
    },
    onError: (_error, _variables, snapshots) => {
      for (const [key, data] of snapshots ?? []) queryClient.setQueryData(key, data);
    },
    onSuccess: (webpage, { id }) => {
      queryClient.setQueryData(webpageKeys.detail(id), webpage);
    },
    onSettled: (_data, _error, { id }) => invalidateWebpage(queryClient, id),
  });
}
