import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { callOptional } from '../../../api/server-capabilities.ts';
import {
  filterHighlights,
  gatherHighlights,
  type Gathered,
  type HighlightsListItem,
} from '../gather.ts';
import type { HighlightsParams } from '../highlights-params.ts';
import { highlightKeys } from './highlight-keys.ts';

/** Highlights per page of the list (the server's `per_page`). */
export const HIGHLIGHTS_PER_PAGE = 50;

export interface HighlightsPage {
  items: HighlightsListItem[];
  hasNext: boolean;
  /** Set when the server has no `listHighlights`: the highlights were gathered from the pages. */
  gathered?: Omit<Gathered, 'items'> & { matching: number };
}

/** Every highlight of the annotated pages, newest first (a server without `listHighlights`). */
export function gatheredHighlightsOptions() {
  return queryOptions({
    queryKey: highlightKeys.gathered(),
    queryFn: ({ signal }) =>
      gatherHighlights({
        listAnnotated: async (page, perPage) =>
          (
            await unwrap(
              apiClient.GET('/webpages', {
                params: {
                  query: {
                    annotated: 'true',
                    page,
                    per_page: perPage,
                    sort: 'first_add_time_desc',
                  },
                },
                signal,
              }),
            )
          ).webpages,
        getWebpage: (id) =>
          unwrap(apiClient.GET('/webpages/{id}', { params: { path: { id } }, signal })),
      }),
    staleTime: 30_000,
  });
}

/**
 * The highlights page, one page at a time: Folio's `listHighlights`, else (HamsterBase) the
 * gathered highlights, searched, filtered and cut into pages here. Whether the server has the
 * operation is asked once per server.
 */
export function highlightsListOptions(search: HighlightsParams) {
  return infiniteQueryOptions({
    queryKey: highlightKeys.list(search),
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal, client }): Promise<HighlightsPage> => {
      const answer = await callOptional(client, 'highlights', () =>
        unwrap(
          apiClient.GET('/highlights', {
            params: {
              query: {
                ...(search.q ? { q: search.q } : {}),
                ...(search.labels.length ? { labels: search.labels } : {}),
                ...(search.host.length ? { host: search.host } : {}),
                page: pageParam,
                per_page: HIGHLIGHTS_PER_PAGE,
              },
            },
            signal,
          }),
        ),
      );
      if (answer) return { items: answer.highlights, hasNext: answer.hasNext };
      const { items, ...gathered } = await client.fetchQuery(gatheredHighlightsOptions());
      const matching = filterHighlights(items, search);
      const start = (pageParam - 1) * HIGHLIGHTS_PER_PAGE;
      return {
        items: matching.slice(start, start + HIGHLIGHTS_PER_PAGE),
        hasNext: matching.length > start + HIGHLIGHTS_PER_PAGE,
        gathered: { ...gathered, matching: matching.length },
      };
    },
    getNextPageParam: (last, _pages, lastPage) => (last.hasNext ? lastPage + 1 : undefined),
    // Highlights are made on other screens (the detail), whose mutations do not know this list's
    // keys: ask again on every visit. The gathered list (HamsterBase) keeps its own 30 s.
    staleTime: 0,
  });
}
