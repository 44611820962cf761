// React bindings of the app's upload queue.
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';

import type { UploadItem, UploadQueue } from './upload-queue.ts';
import { uploadAnnouncer, uploadQueue } from './upload-store.ts';

export type UploadQueueActions = Omit<UploadQueue, 'subscribe' | 'getSnapshot' | 'onUploaded'>;

export interface UploadQueueState extends UploadQueueActions {
  /** The files in the queue, oldest first. */
  readonly items: readonly UploadItem[];
}

/** Webpage lists (and views, which list webpages) may change after an upload. */
export function invalidateAfterUpload(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({
    predicate: (query) =>
      query.queryKey[0] === 'webpages' ||
      query.queryKey[0] === 'views' ||
      query.meta?.showsWebpages === true,
  });
}

/** One subscription per QueryClient, however many components ask for it. */
const invalidation = new WeakMap<QueryClient, { users: number; unsubscribe: () => void }>();

/**
 * Refreshes the webpage lists and views after each successful upload while mounted (once per
 * QueryClient). Uploads that finished while nothing was mounted are caught up on mount.
 */
export function useInvalidateAfterUploads(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let entry = invalidation.get(queryClient);
    if (!entry) {
      entry = {
        users: 0,
        unsubscribe: uploadQueue.onUploaded(() => invalidateAfterUpload(queryClient)),
      };
      invalidation.set(queryClient, entry);
    }
    const current = entry;
    current.users++;
    return () => {
      current.users--;
      if (current.users === 0) {
        current.unsubscribe();
        invalidation.delete(queryClient);
      }
    };
  }, [queryClient]);
}

const actions: UploadQueueActions = {
  enqueue: uploadQueue.enqueue,
  chooseFormat: uploadQueue.chooseFormat,
  edit: uploadQueue.edit,
  setEditing: uploadQueue.setEditing,
  retry: uploadQueue.retry,
  retryFailed: uploadQueue.retryFailed,
  cancel: uploadQueue.cancel,
  remove: uploadQueue.remove,
  clearFinished: uploadQueue.clearFinished,
};

/** The upload queue's items and actions; also keeps the lists fresh after uploads. */
export function useUploadQueue(): UploadQueueState {
  const items = useSyncExternalStore(
    uploadQueue.subscribe,
    uploadQueue.getSnapshot,
    uploadQueue.getSnapshot,
  );
  useInvalidateAfterUploads();
  return { items, ...actions };
}

/** The latest status announcement, for an `aria-live="polite"` region. */
export function useUploadAnnouncement(): string {
  return useSyncExternalStore(
    uploadAnnouncer.subscribe,
    uploadAnnouncer.getSnapshot,
    uploadAnnouncer.getSnapshot,
  );
}
