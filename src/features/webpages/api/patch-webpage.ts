import {
  useMutation,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback, useRef } from 'react';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { showDone, showToast } from '../../../components/toast-store.ts';
import { displayTitle } from '../../../lib/display.ts';
import type { Webpage } from './get-webpage.ts';
import type { WebpageListPage } from './list-webpages.ts';
import { webpageKeys } from './webpage-keys.ts';

export type WebpagePatch = components['schemas']['PatchWebPageRequest'];

export interface PatchWebpageVariables {
  id: string;
  patch: WebpagePatch;
}

/** Fields shown at once, before the server answers: cheap to show, easy to take back. */
export type OptimisticFields = Pick<WebpagePatch, 'liked' | 'read' | 'labels'>;

type Snapshot = [QueryKey, unknown];

export function optimisticFields(patch: WebpagePatch): OptimisticFields {
  const fields: OptimisticFields = {};
  if (patch.liked !== undefined) fields.liked = patch.liked;
  if (patch.read !== undefined) fields.read = patch.read;
  if (patch.labels !== undefined) fields.labels = patch.labels;
  return fields;
}

/** Writes fields of a webpage into its cached detail and into every cached list that shows it. */
export function setCachedWebpage(queryClient: QueryClient, id: string, fields: OptimisticFields) {
  queryClient.setQueryData<Webpage>(webpageKeys.detail(id), (old) =>
    old ? { ...old, ...fields } : old,
  );
  queryClient.setQueriesData<WebpageListPage>({ queryKey: webpageKeys.lists() }, (old) =>
    old?.items.some((item) => item.id === id)
      ? { ...old, items: old.items.map((item) => (item.id === id ? { ...item, ...fields } : item)) }
      : old,
  );
}

/** Stops refetches that could overwrite an optimistic change with what the server had before. */
export function cancelWebpageQueries(queryClient: QueryClient, ids: readonly string[]) {
  return Promise.all([
    queryClient.cancelQueries({ queryKey: webpageKeys.lists() }),
    ...ids.map((id) => queryClient.cancelQueries({ queryKey: webpageKeys.detail(id) })),
  ]);
}

/**
 * Marks every query that shows webpages as stale after a change: the feature's lists and the
 * webpages' details, the facets when labels or links changed, and other features' queries flagged
 * with `meta.showsWebpages` (a view's pages). The stored content is never refetched: a patch does
 * not change it.
 */
export function invalidateWebpages(
  queryClient: QueryClient,
  ids: readonly string[],
  changed: { facets?: boolean } = {},
): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: webpageKeys.lists() }),
    ...ids.map((id) => queryClient.invalidateQueries({ queryKey: webpageKeys.detail(id) })),
    changed.facets ? queryClient.invalidateQueries({ queryKey: webpageKeys.facets() }) : null,
    queryClient.invalidateQueries({ predicate: (query) => query.meta?.showsWebpages === true }),
  ]);
}

/** Whether a patch changes what the facets count (labels, or the link and so the host). */
export function changesFacets(patch: WebpagePatch): boolean {
  return patch.labels !== undefined || patch.link !== undefined;
}

export function patchWebpageRequest(id: string, patch: WebpagePatch): Promise<Webpage> {
  return unwrap(apiClient.PATCH('/webpages/{id}', { params: { path: { id } }, body: patch }));
}

/**
 * Edits a webpage's metadata. `liked`, `read` and `labels` show at once in the detail and every
 * cached list, and roll back if the server refuses; the other fields show when it answered.
 */
export function usePatchWebpage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: PatchWebpageVariables): Promise<Webpage> =>
      patchWebpageRequest(id, patch),
    onMutate: async ({ id, patch }): Promise<Snapshot[]> => {
      const fields = optimisticFields(patch);
      if (!Object.keys(fields).length) return [];
      await cancelWebpageQueries(queryClient, [id]);
      const snapshots: Snapshot[] = [
        [webpageKeys.detail(id), queryClient.getQueryData(webpageKeys.detail(id))],
        ...queryClient.getQueriesData<WebpageListPage>({ queryKey: webpageKeys.lists() }),
      ];
      setCachedWebpage(queryClient, id, fields);
      return snapshots;
    },
    onError: (_error, _variables, snapshots) => {
      for (const [key, data] of snapshots ?? []) queryClient.setQueryData(key, data);
    },
    onSuccess: (webpage, { id }) => {
      queryClient.setQueryData(webpageKeys.detail(id), webpage);
    },
    onSettled: (_data, _error, { id, patch }) =>
      invalidateWebpages(queryClient, [id], { facets: changesFacets(patch) }),
  });
}

export type ToggleField = 'liked' | 'read';

export interface ToggleTarget {
  id: string;
  title: string;
  link?: string | null;
}

/** What a toggle did, as a message: "Liked “Title”", "Marked “Title” as unread". */
export function toggleDoneMessage(field: ToggleField, value: boolean, title: string): string {
  if (field === 'liked') return `${value ? 'Liked' : 'Unliked'} “${title}”`;
  return `Marked “${title}” as ${value ? 'read' : 'unread'}`;
}

/** Why a toggle did not happen: "Could not like “Title”: <the server's message>". */
export function toggleFailedMessage(
  field: ToggleField,
  value: boolean,
  title: string,
  error: unknown,
): string {
  const what =
    field === 'liked'
      ? `${value ? 'like' : 'unlike'} “${title}”`
      : `mark “${title}” as ${value ? 'read' : 'unread'}`;
  return `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Like / unlike and read / unread, shown at once (see `usePatchWebpage`). The result is a short
 * message with Undo (a newer toggle of the same page and field replaces it); a refusal rolls back
 * and says why. A toggle still on its way ignores more presses: a double click sends one change.
 */
export function useToggleWebpage() {
  const { mutateAsync } = usePatchWebpage();
  const pending = useRef(new Set<string>());
  return useCallback(
    function toggle(webpage: ToggleTarget, field: ToggleField, value: boolean, undo = false) {
      const key = `${webpage.id}:${field}`;
      if (pending.current.has(key)) return;
      pending.current.add(key);
      const title = displayTitle(webpage);
      mutateAsync({ id: webpage.id, patch: { [field]: value } })
        .then(
          () => {
            const message = toggleDoneMessage(field, value, title);
            // An undo is not undone in turn: the page shows its state.
            const again = undo ? undefined : () => toggle(webpage, field, !value, true);
            showDone(message, again, { key: `toggle:${key}`, kind: 'change' });
          },
          (error: unknown) =>
            showToast({
              key: `toggle:${key}`,
              tone: 'error',
              message: toggleFailedMessage(field, value, title, error),
            }),
        )
        .finally(() => pending.current.delete(key));
    },
    [mutateAsync],
  );
}
