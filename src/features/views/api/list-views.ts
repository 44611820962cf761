import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { viewKeys } from './view-keys.ts';

export type WebpagesView = components['schemas']['WebpagesView'];

/** Every view, newest first (HamsterBase lists them by id, Folio newest first). */
export function listViewsOptions() {
  return queryOptions({
    queryKey: viewKeys.list(),
    queryFn: async ({ signal }): Promise<WebpagesView[]> => {
      const views = await unwrap(apiClient.GET('/views', { signal }));
      return views.sort((a, b) => b.createdAt - a.createdAt);
    },
  });
}
