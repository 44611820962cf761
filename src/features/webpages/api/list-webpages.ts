import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { pageWindow } from '../../../lib/page-window.ts';
import { toListQuery, type ListFilters } from '../filters.ts';
import { webpageKeys } from './webpage-keys.ts';

export type WebpageListItem = components['schemas']['WebpagesListItem'];

export interface WebpageListPage {
  items: WebpageListItem[];
  /** Whether a next page exists (one more item than shown is asked for). */
  hasNext: boolean;
  /**
   * How many webpages match the filters on all pages, when the server says (Folio's
   * `X-Total-Count`; HamsterBase does not).
   */
  total?: number;
}

/** The `X-Total-Count` header as a count, if it is one. */
export function totalCountOf(response: Response): number | undefined {
  const value = response.headers.get('x-total-count');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const total = Number(value);
  return Number.isSafeInteger(total) ? total : undefined;
}

export function listWebpagesOptions(filters: ListFilters) {
  return queryOptions({
    queryKey: webpageKeys.list(filters),
    queryFn: async ({ signal }): Promise<WebpageListPage> => {
      const window = pageWindow(filters.page, filters.perPage);
      const call = apiClient.GET('/webpages', {
        params: {
          query: { ...toListQuery(filters), page: window.page, per_page: window.perPage },
        },
        signal,
      });
      const { webpages } = await unwrap(call);
      const total = totalCountOf((await call).response);
      // What the server answered; webpages in their undo window are left out by the list's
      // `select` (hidden-webpages.ts), not here: client state stays out of the cache.
      return {
        items: webpages.slice(window.offset, window.offset + filters.perPage),
        hasNext: webpages.length > window.offset + filters.perPage,
        ...(total === undefined ? {} : { total }),
      };
    },
  });
}
