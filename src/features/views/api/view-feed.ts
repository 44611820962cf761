import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { isApiError, unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { apiBaseUrl, loadConnectionSettings } from '../../../lib/connection-settings.ts';
import { viewKeys } from './view-keys.ts';

export type ViewFeed = components['schemas']['ViewFeed'];

/** The feed's state, or `unsupported` when the server has no feed operations (HamsterBase). */
export type ViewFeedState = ViewFeed | { unsupported: true };

/** `GET /views/{id}/feed`: a server without Folio's feed extension answers 404 or its web UI. */
export function viewFeedOptions(viewId: string) {
  return queryOptions({
    queryKey: viewKeys.feed(viewId),
    queryFn: async ({ signal }): Promise<ViewFeedState> => {
      try {
        return await unwrap(
          apiClient.GET('/views/{view_id}/feed', { params: { path: { view_id: viewId } }, signal }),
        );
      } catch (error) {
        const unsupported =
          isApiError(error) &&
          (error.kind === 'invalid-response' || (error.kind === 'http' && error.status === 404));
        if (unsupported) return { unsupported: true };
        throw error;
      }
    },
  });
}

export type ViewFeedAction = 'enable' | 'rotate' | 'disable';

function changeFeed(viewId: string, action: ViewFeedAction): Promise<ViewFeed> {
  const params = { params: { path: { view_id: viewId } } };
  switch (action) {
    case 'enable':
      return unwrap(apiClient.POST('/views/{view_id}/feed', params));
    case 'rotate':
      return unwrap(apiClient.POST('/views/{view_id}/feed/rotate', params));
    case 'disable':
      return unwrap(apiClient.DELETE('/views/{view_id}/feed', params));
  }
}

/** Turns a view's feed on, gives it a new secret, or turns it off; the answer is the new state. */
export function useChangeViewFeed(viewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: ViewFeedAction) => changeFeed(viewId, action),
    onSuccess: (feed) => queryClient.setQueryData(viewKeys.feed(viewId), feed),
  });
}

/** The feed's full address: the server's base URL (where `/feeds/…` is served) and its path. */
export function feedUrl(path: string): string {
  const api = apiBaseUrl(loadConnectionSettings().baseUrl);
  return `${api.slice(0, -'/public/api/v1'.length)}${path}`;
}
