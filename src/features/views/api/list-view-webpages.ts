import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../api/schema.gen.ts';
import { viewKeys } from './view-keys.ts';

export type ViewWebpage = components['schemas']['ViewWebpagesListItem'];

/** The webpages of a view (no paging: the view's own limit applies). */
export function viewWebpagesOptions(id: string) {
  return queryOptions({
    queryKey: viewKeys.webpages(id),
    queryFn: async ({ signal }): Promise<ViewWebpage[]> => {
      const { webpages } = await unwrap(
        apiClient.GET('/views/{view_id}/webpages', { params: { path: { view_id: id } }, signal }),
      );
      return webpages;
    },
    // Webpage mutations (like, read, delete) invalidate queries flagged this way.
    meta: { showsWebpages: true },
  });
}
