// `DELETE /webpages/{id}` and what the cache forgets after it. The undo window in front of it (the
// timer, `pagehide`, the toasts) is the webpages feature's delete-with-undo.ts.
import type { Query, QueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { sendKeepalive } from '../../../api/keepalive.ts';
import type { Webpage } from './get-webpage.ts';
import type { WebpageListPage } from './list-webpages.ts';
import { webpageKeys } from './webpage-keys.ts';

const showsWebpages = (query: Query) => query.meta?.showsWebpages === true;

export function deleteWebpageRequest(id: string): Promise<Webpage> {
  return unwrap(apiClient.DELETE('/webpages/{id}', { params: { path: { id } } }));
}

/** The same DELETE, sent with `keepalive` while the page goes away (no answer is read). */
export function sendDeleteKeepalive(id: string): void {
  sendKeepalive('DELETE', `/webpages/${encodeURIComponent(id)}`);
}

/** Webpages about to be deleted leave the loaded list pages at once (before any request). */
export function dropFromLoadedLists(queryClient: QueryClient, ids: ReadonlySet<string>): void {
  queryClient.setQueriesData<WebpageListPage>({ queryKey: webpageKeys.lists() }, (old) =>
    old?.items.some((item) => ids.has(item.id))
      ? { ...old, items: old.items.filter((item) => !ids.has(item.id)) }
      : old,
  );
}

/**
 * After webpages were deleted on the server: lists (and views' lists) on screen refetch, the
 * others leave the cache so a later visit does not show a deleted page from a stale copy; their
 * details and content leave the cache when nothing shows them, else are only marked stale (a
 * mounted page must not refetch and 404 before it goes away).
 */
export function forgetDeletedWebpages(queryClient: QueryClient, ids: readonly string[]) {
  queryClient.removeQueries({ queryKey: webpageKeys.lists(), type: 'inactive' });
  queryClient.removeQueries({ predicate: showsWebpages, type: 'inactive' });
  const perWebpage = ids.flatMap((id) => [webpageKeys.detail(id), webpageKeys.content(id)]);
  for (const queryKey of perWebpage) queryClient.removeQueries({ queryKey, type: 'inactive' });
  return Promise.all([
    ...perWebpage.map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, refetchType: 'none' }),
    ),
    queryClient.invalidateQueries({ queryKey: webpageKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: webpageKeys.facets() }),
    queryClient.invalidateQueries({ predicate: showsWebpages }),
  ]);
}
