import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { WebpagesView } from './list-views.ts';
import { viewKeys } from './view-keys.ts';

export function viewOptions(id: string) {
  return queryOptions({
    queryKey: viewKeys.detail(id),
    queryFn: ({ signal }): Promise<WebpagesView> =>
      unwrap(apiClient.GET('/views/{view_id}', { params: { path: { view_id: id } }, signal })),
  });
}
