import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { ViewWebpagesLoaded, ViewWebpagesPage } from './types.ts';
import { viewKeys } from './view-keys.ts';

/** Webpages asked for at a time, on a server that pages a view (Folio's `per_page` extension). */
export const VIEW_PAGE_SIZE = 200;

function loaded(data: InfiniteData<ViewWebpagesPage, number>): ViewWebpagesLoaded {
  return {
    items: data.pages.flatMap((page) => page.webpages),
    hasMore: data.pages.at(-1)?.hasNext === true,
  };
}

/**
 * The webpages of a view, a page at a time where the server pages views (Folio: `per_page` and
 * `hasNext`); a server that ignores paging (HamsterBase) answers the whole view at once, without
 * `hasNext`, and nothing more is asked. The view's own limit applies either way.
 */
export function viewWebpagesOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: viewKeys.webpages(id),
    queryFn: async ({ signal, pageParam }): Promise<ViewWebpagesPage> => {
      const { webpages, hasNext } = await unwrap(
        apiClient.GET('/views/{view_id}/webpages', {
          params: {
            path: { view_id: id },
            query: { page: pageParam, per_page: VIEW_PAGE_SIZE },
          },
          signal,
        }),
      );
      return { webpages, hasNext };
    },
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasNext === true ? pages.length + 1 : undefined),
    select: loaded,
    // Webpage mutations (like, read, delete) invalidate queries flagged this way.
    meta: { showsWebpages: true },
  });
}
