import { useMutation, useQueryClient } from '@tanstack/react-query';

import { settleWithConcurrency } from '../../../lib/concurrency.ts';
import type { Webpage } from './get-webpage.ts';
import type { WebpageListItem } from './list-webpages.ts';
import {
  cancelWebpageQueries,
  changesFacets,
  invalidateWebpages,
  optimisticFields,
  patchWebpageRequest,
  setCachedWebpage,
  type WebpagePatch,
} from './patch-webpage.ts';
import { webpageKeys } from './webpage-keys.ts';

/** Requests in flight at once during a bulk change. */
export const BULK_CONCURRENCY = 4;

export interface BulkChange {
  item: WebpageListItem;
  patch: WebpagePatch;
}

export interface BulkFailure {
  item: WebpageListItem;
  message: string;
}

export interface BulkPatchResult {
  done: WebpageListItem[];
  failed: BulkFailure[];
}

/**
 * Applies one PATCH per webpage, at most `BULK_CONCURRENCY` at a time. Likes, read states and
 * labels show at once; those the server refused go back to what they were. Resolves with what
 * was done and what failed (a partial failure is a result, not an error).
 */
export function useBulkPatchWebpages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: readonly BulkChange[]): Promise<BulkPatchResult> => {
      const outcomes = await settleWithConcurrency(changes, BULK_CONCURRENCY, ({ item, patch }) =>
        patchWebpageRequest(item.id, patch),
      );
      const result: BulkPatchResult = { done: [], failed: [] };
      outcomes.forEach((outcome, index) => {
        const { item } = changes[index]!;
        if (outcome.ok) {
          result.done.push(item);
          const key = webpageKeys.detail(item.id);
          if (queryClient.getQueryData(key)) queryClient.setQueryData<Webpage>(key, outcome.value);
        } else {
          const message =
            outcome.error instanceof Error ? outcome.error.message : 'The request failed';
          result.failed.push({ item, message });
        }
      });
      return result;
    },
    onMutate: async (changes) => {
      await cancelWebpageQueries(
        queryClient,
        changes.map(({ item }) => item.id),
      );
      for (const { item, patch } of changes) {
        setCachedWebpage(queryClient, item.id, optimisticFields(patch));
      }
    },
    onSuccess: ({ failed }) => {
      for (const { item } of failed) {
        setCachedWebpage(queryClient, item.id, {
          liked: item.liked,
          read: item.read,
          labels: item.labels,
        });
      }
    },
    onSettled: (_result, _error, changes) =>
      invalidateWebpages(
        queryClient,
        changes.map(({ item }) => item.id),
        { facets: changes.some(({ patch }) => changesFacets(patch)) },
      ),
  });
}
