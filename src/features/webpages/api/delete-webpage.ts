import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

import { apiClient } from '../../../api/client.ts';
import { isApiError, unwrap } from '../../../api/errors.ts';
import { sendKeepalive } from '../../../api/keepalive.ts';
import { dismissToast, showToast } from '../../../components/toast-store.ts';
import { displayTitle } from '../../../lib/display.ts';
import { settleWithConcurrency } from '../../../lib/concurrency.ts';
import { hideWebpages, unhideWebpages } from '../hidden-webpages.ts';
import { BULK_CONCURRENCY } from './bulk-patch-webpages.ts';
import type { Webpage } from './get-webpage.ts';
import type { WebpageListPage } from './list-webpages.ts';
import { webpageKeys } from './webpage-keys.ts';

/** How long a delete can be undone before it is sent. */
export const UNDO_WINDOW_MS = 5000;

export interface DeleteTarget {
  id: string;
  title: string;
  link?: string | null;
}

export interface DeleteFailure {
  target: DeleteTarget;
  message: string;
}

export type DeleteOutcome =
  { undone: true } | { undone: false; deleted: DeleteTarget[]; failed: DeleteFailure[] };

const showsWebpages = (query: Query) => query.meta?.showsWebpages === true;

export function deleteWebpageRequest(id: string): Promise<Webpage> {
  return unwrap(apiClient.DELETE('/webpages/{id}', { params: { path: { id } } }));
}

/**
 * After webpages were deleted on the server: lists (and views' lists) on screen refetch, the
 * others leave the cache so a later visit does not show a deleted page from a stale copy; their
 * details and content leave the cache when nothing shows them, else are only marked stale (a
 * mounted page must not refetch and 404 before it goes away).
 */
export function forgetDeletedWebpages(queryClient: QueryClient, ids: readonly string[]) {
  queryClient.removeQueries({ queryKey: webpageKeys.lists(), type: 'inactive' });
  queryClient.removeQueries({ predicate: showsWebpages, type: 'inactive' });
  const perWebpage = ids.flatMap((id) => [webpageKeys.detail(id), webpageKeys.content(id)]);
  for (const queryKey of perWebpage) queryClient.removeQueries({ queryKey, type: 'inactive' });
  return Promise.all([
    ...perWebpage.map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, refetchType: 'none' }),
    ),
    queryClient.invalidateQueries({ queryKey: webpageKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: webpageKeys.facets() }),
    queryClient.invalidateQueries({ predicate: showsWebpages }),
  ]);
}

interface PendingDelete {
  targets: readonly DeleteTarget[];
  timer: ReturnType<typeof setTimeout>;
  toastId: number;
  settle: (outcome: DeleteOutcome) => void;
}

const pending = new Set<PendingDelete>();

const webpagePath = (id: string) => `/webpages/${encodeURIComponent(id)}`;

/** The page is going away: every delete still waiting for its undo window is sent now. */
function sendPendingNow() {
  for (const entry of pending) {
    clearTimeout(entry.timer);
    for (const target of entry.targets) sendKeepalive('DELETE', webpagePath(target.id));
  }
  pending.clear();
  window.removeEventListener('pagehide', sendPendingNow);
}

function forget(entry: PendingDelete): boolean {
  if (!pending.delete(entry)) return false;
  clearTimeout(entry.timer);
  if (pending.size === 0) window.removeEventListener('pagehide', sendPendingNow);
  return true;
}

function describe(targets: readonly DeleteTarget[], verb: string): string {
  return targets.length === 1
    ? `${verb} “${displayTitle(targets[0]!)}”`
    : `${verb} ${targets.length} webpages`;
}

function undo(queryClient: QueryClient, entry: PendingDelete) {
  if (!forget(entry)) return;
  dismissToast(entry.toastId);
  const ids = entry.targets.map((target) => target.id);
  unhideWebpages(ids);
  void queryClient.invalidateQueries({ queryKey: webpageKeys.lists() });
  showToast({ message: describe(entry.targets, 'Restored'), tone: 'success' });
  entry.settle({ undone: true });
}

async function commit(queryClient: QueryClient, entry: PendingDelete) {
  if (!forget(entry)) return;
  dismissToast(entry.toastId);
  const outcomes = await settleWithConcurrency(entry.targets, BULK_CONCURRENCY, (target) =>
    deleteWebpageRequest(target.id),
  );
  const deleted: DeleteTarget[] = [];
  const failed: DeleteFailure[] = [];
  outcomes.forEach((outcome, index) => {
    const target = entry.targets[index]!;
    // Already gone (deleted elsewhere): what the user asked for.
    if (outcome.ok || (isApiError(outcome.error) && outcome.error.status === 404)) {
      deleted.push(target);
    } else {
      const message = outcome.error instanceof Error ? outcome.error.message : 'Request failed';
      failed.push({ target, message });
    }
  });
  // The failed ones come back with the refetch; the deleted ones stay hidden until it is done.
  unhideWebpages(failed.map(({ target }) => target.id));
  await forgetDeletedWebpages(
    queryClient,
    deleted.map((target) => target.id),
  );
  unhideWebpages(deleted.map((target) => target.id));
  if (failed.length) {
    showToast({
      tone: 'error',
      message:
        entry.targets.length === 1
          ? `Could not delete “${displayTitle(entry.targets[0]!)}”: ${failed[0]!.message}`
          : `Deleted ${deleted.length} of ${entry.targets.length} webpages; ${failed.length} failed:`,
      details:
        entry.targets.length === 1
          ? undefined
          : failed.map(({ target, message }) => `${displayTitle(target)}: ${message}`),
    });
  }
  entry.settle({ undone: false, deleted, failed });
}

/**
 * Deletes webpages after an undo window: they leave every list at once, a message offers Undo,
 * and the DELETEs are sent when the window closes (or at once if the page goes away). Resolves
 * with what happened.
 */
export function scheduleDelete(
  queryClient: QueryClient,
  targets: readonly DeleteTarget[],
  windowMs: number = UNDO_WINDOW_MS,
): Promise<DeleteOutcome> {
  return new Promise((resolve) => {
    if (!targets.length) {
      resolve({ undone: false, deleted: [], failed: [] });
      return;
    }
    const ids = new Set(targets.map((target) => target.id));
    hideWebpages(ids);
    queryClient.setQueriesData<WebpageListPage>({ queryKey: webpageKeys.lists() }, (old) =>
      old?.items.some((item) => ids.has(item.id))
        ? { ...old, items: old.items.filter((item) => !ids.has(item.id)) }
        : old,
    );
    if (pending.size === 0) window.addEventListener('pagehide', sendPendingNow);
    const entry: PendingDelete = {
      targets,
      settle: resolve,
      timer: setTimeout(() => void commit(queryClient, entry), windowMs),
      toastId: showToast({
        message: describe(targets, 'Deleted'),
        action: { label: 'Undo', run: () => undo(queryClient, entry) },
        durationMs: null,
      }),
    };
    pending.add(entry);
  });
}

/** Delete with an undo window (see `scheduleDelete`), bound to the app's QueryClient. */
export function useDeleteWebpagesWithUndo() {
  const queryClient = useQueryClient();
  return useCallback(
    (targets: readonly DeleteTarget[]) => scheduleDelete(queryClient, targets),
    [queryClient],
  );
}
