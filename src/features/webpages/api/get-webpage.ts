import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { webpageKeys } from './webpage-keys.ts';

export type Webpage = components['schemas']['Webpage'];

export function webpageOptions(id: string) {
  return queryOptions({
    queryKey: webpageKeys.detail(id),
    queryFn: ({ signal }): Promise<Webpage> =>
      unwrap(apiClient.GET('/webpages/{id}', { params: { path: { id } }, signal })),
  });
}
