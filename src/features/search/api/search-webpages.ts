import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { pageWindow } from '../../../lib/page-window.ts';
import { SEARCH_PER_PAGE, toSearchQuery, type SearchParams } from '../search-params.ts';
import { searchKeys } from './search-keys.ts';

export type SearchSegment = components['schemas']['SearchSegment'];
type ApiSearchResult = components['schemas']['SearchResult'];

/** A search result with its labels as an array (HamsterBase sends them as a JSON string). */
export type SearchResultItem = Omit<ApiSearchResult, 'labels'> & { labels: string[] };

export interface SearchResultsPage {
  items: SearchResultItem[];
  /** Whether a next page exists (one more result than shown is asked for). */
  hasNext: boolean;
}

/** `labels` as an array whether the server sent an array (Folio) or a JSON string (HamsterBase). */
export function resultLabels(labels: string[] | string): string[] {
  let value: unknown = labels;
  if (typeof labels === 'string') {
    try {
      value = JSON.parse(labels);
    } catch {
      return [];
    }
  }
  return Array.isArray(value)
    ? value.filter((label): label is string => typeof label === 'string')
    : [];
}

/** One page of results; the request is cancelled (`signal`) when the query is outdated. */
export function searchWebpagesOptions(search: SearchParams) {
  return queryOptions({
    queryKey: searchKeys.results(search),
    queryFn: async ({ signal }): Promise<SearchResultsPage> => {
      const window = pageWindow(search.page, SEARCH_PER_PAGE);
      const { webpages } = await unwrap(
        apiClient.GET('/search/webpages', {
          params: {
            query: { ...toSearchQuery(search), page: window.page, per_page: window.perPage },
          },
          signal,
        }),
      );
      return {
        items: webpages
          .slice(window.offset, window.offset + SEARCH_PER_PAGE)
          .map((result) => ({ ...result, labels: resultLabels(result.labels) })),
        hasNext: webpages.length > window.offset + SEARCH_PER_PAGE,
      };
    },
    enabled: search.q !== '',
    // Results show webpage records: refreshed when a webpage is liked, read, edited or deleted.
    meta: { showsWebpages: true },
  });
}
