import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../api/schema.gen.ts';
import { pageWindow } from '../../../lib/page-window.ts';
import { toListQuery, type ListFilters } from '../filters.ts';
import { isHidden } from '../hidden-webpages.ts';
import { webpageKeys } from './webpage-keys.ts';

export type WebpageListItem = components['schemas']['WebpagesListItem'];

export interface WebpageListPage {
  items: WebpageListItem[];
  /** Whether a next page exists (the API has no total: one more item than shown is asked for). */
  hasNext: boolean;
}

export function listWebpagesOptions(filters: ListFilters) {
  return queryOptions({
    queryKey: webpageKeys.list(filters),
    queryFn: async ({ signal }): Promise<WebpageListPage> => {
      const window = pageWindow(filters.page, filters.perPage);
      const { webpages } = await unwrap(
        apiClient.GET('/webpages', {
          params: {
            query: { ...toListQuery(filters), page: window.page, per_page: window.perPage },
          },
          signal,
        }),
      );
      return {
        items: webpages
          .slice(window.offset, window.offset + filters.perPage)
          .filter((item) => !isHidden(item.id)),
        hasNext: webpages.length > window.offset + filters.perPage,
      };
    },
  });
}
