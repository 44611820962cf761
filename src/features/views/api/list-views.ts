import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../api/schema.gen.ts';
import { viewKeys } from './view-keys.ts';

export type WebpagesView = components['schemas']['WebpagesView'];

export function listViewsOptions() {
  return queryOptions({
    queryKey: viewKeys.list(),
    queryFn: ({ signal }): Promise<WebpagesView[]> => unwrap(apiClient.GET('/views', { signal })),
  });
}
