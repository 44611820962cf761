import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../api/schema.gen.ts';
import type { WebpagesView } from './list-views.ts';
import { viewKeys } from './view-keys.ts';

export type CreateViewInput = components['schemas']['CreateViewRequest'];

export function useCreateView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateViewInput): Promise<WebpagesView> =>
      unwrap(apiClient.POST('/views', { body: input })),
    onSuccess: (view) => {
      queryClient.setQueryData(viewKeys.detail(view.id), view);
      return queryClient.invalidateQueries({ queryKey: viewKeys.list() });
    },
  });
}
