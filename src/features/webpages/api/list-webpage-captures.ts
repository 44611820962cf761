import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { hostOf } from '../../../lib/urls.ts';
import type { WebpageListItem, WebpageListPage } from './list-webpages.ts';
import { webpageKeys } from './webpage-keys.ts';

/** Pages of the list read at most, and their size: HamsterBase may list the whole host. */
export const CAPTURE_LIST_PAGES = 5;
export const CAPTURE_LIST_PER_PAGE = 100;

/**
 * The live webpages whose link is exactly `link` (the page itself included), newest added first.
 * Folio's server selects them with its `link` extension; HamsterBase ignores it, so the list is
 * asked by the link's host (a filter both have) and every item's link is checked here. At most
 * `CAPTURE_LIST_PAGES` pages are read; `hasNext` says that the host has more pages than that.
 */
export function webpageCapturesOptions(link: string) {
  return queryOptions({
    queryKey: webpageKeys.captures(link),
    queryFn: async ({ signal }): Promise<WebpageListPage> => {
      const host = hostOf(link);
      const items: WebpageListItem[] = [];
      if (host === null) return { items, hasNext: false };
      for (let page = 1; page <= CAPTURE_LIST_PAGES; page++) {
        const { webpages } = await unwrap(
          apiClient.GET('/webpages', {
            params: {
              query: {
                host: [host],
                link,
                sort: 'first_add_time_desc',
                page,
                per_page: CAPTURE_LIST_PER_PAGE,
              },
            },
            signal,
          }),
        );
        items.push(...webpages.filter((item) => item.link === link));
        if (webpages.length < CAPTURE_LIST_PER_PAGE) return { items, hasNext: false };
      }
      return { items, hasNext: true };
    },
  });
}
