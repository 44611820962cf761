// What the routes hand the preview as `contentOptions` (the webpages feature's content query), of
// the same shape, for the preview's own tests (a feature does not import another feature).
import { queryOptions, type QueryKey } from '@tanstack/react-query';

import { apiClient } from '../api/client.ts';
import { unwrap } from '../api/errors.ts';

export const contentOptions = (id: string) => {
  const queryKey: QueryKey = ['webpages', 'content', id];
  return queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<string> =>
      unwrap(apiClient.GET('/webpages/{id}/content', { params: { path: { id } }, signal })),
  });
};
