// Folio's to-save extension: links from a bookmarks file, which Folio cannot fetch, kept as a list
// to save by hand. A server without it (HamsterBase) answers 404: the list is then `unsupported`
// and nothing is written.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { isApiError, unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';

export type ToSaveLink = components['schemas']['ToSaveLink'];
export type NewToSaveLink = components['schemas']['NewToSaveLink'];

export const toSaveKeys = {
  all: ['to-save'] as const,
};

export type ToSaveList = { supported: true; links: ToSaveLink[] } | { supported: false };

/** The list; `saved` changes with uploads, so it is refreshed after them (meta.showsWebpages). */
export function toSaveOptions() {
  return queryOptions({
    queryKey: toSaveKeys.all,
    queryFn: async ({ signal }): Promise<ToSaveList> => {
      try {
        const { links } = await unwrap(apiClient.GET('/to-save', { signal }));
        return { supported: true, links };
      } catch (error) {
        if (isApiError(error) && error.status === 404) return { supported: false };
        throw error;
      }
    },
    meta: { showsWebpages: true },
  });
}

/** The API takes at most this many links a request. */
const BATCH = 1000;

/** Adds links in batches; resolves with how many were added and how many were there already. */
export function useAddToSave() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (links: readonly NewToSaveLink[]) => {
      let added = 0;
      let existing = 0;
      for (let at = 0; at < links.length; at += BATCH) {
        const answer = await unwrap(
          apiClient.POST('/to-save', { body: { links: links.slice(at, at + BATCH) } }),
        );
        added += answer.added;
        existing += answer.existing;
      }
      return { added, existing };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: toSaveKeys.all }),
  });
}

export function useDeleteToSave() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(apiClient.DELETE('/to-save/{link_id}', { params: { path: { link_id: String(id) } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: toSaveKeys.all }),
  });
}
