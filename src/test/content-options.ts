// What the routes hand the preview as `contentOptions` (the webpages feature's content query), of
// the same shape, for the preview's own tests (a feature does not import another feature).
import { queryOptions, type QueryKey } from '@tanstack/react-query';

import { fetchOriginalFile } from '../api/fetch-original-file.ts';
import type { OriginalFile } from '../api/original-file.ts';

export const contentOptions = (id: string) => {
  const queryKey: QueryKey = ['webpages', 'content', id];
  return queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<OriginalFile> => fetchOriginalFile(id, signal),
  });
};
