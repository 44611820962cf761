// Deleting webpages with an undo window: they leave every list at once, a toast offers Undo, and
// the DELETEs (api/delete-webpage.ts) are sent when the window closes, or with `keepalive` at once
// if the page goes away (`pagehide`).
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

import { isApiError } from '../../api/errors.ts';
import { dismissToast, showToast } from '../../components/toast-store.ts';
import { settleWithConcurrency } from '../../lib/concurrency.ts';
import { displayTitle } from '../../lib/display.ts';
import { BULK_CONCURRENCY } from './api/bulk-patch-webpages.ts';
import {
  deleteWebpageRequest,
  dropFromLoadedLists,
  forgetDeletedWebpages,
  sendDeleteKeepalive,
} from './api/delete-webpage.ts';
import { webpageKeys } from './api/webpage-keys.ts';
import { hideWebpages, unhideWebpages } from './hidden-webpages.ts';

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

interface PendingDelete {
  targets: readonly DeleteTarget[];
  timer: ReturnType<typeof setTimeout>;
  toastId: number;
  settle: (outcome: DeleteOutcome) => void;
}

const pending = new Set<PendingDelete>();

/** The page is going away: every delete still waiting for its undo window is sent now. */
function sendPendingNow() {
  for (const entry of pending) {
    clearTimeout(entry.timer);
    for (const target of entry.targets) sendDeleteKeepalive(target.id);
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
    dropFromLoadedLists(queryClient, ids);
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
