// Making, editing and deleting a page's highlights (createHighlight, patchHighlight,
// deleteHighlight). The page's cached detail shows each change at once and takes it back if the
// server refuses; a delete waits for an undo window before it is sent, like deletes of webpages.
// The cache key of the page and what else to refresh afterwards are the caller's (the webpages
// feature owns them; features do not import each other).
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

import { apiClient } from '../../../api/client.ts';
import { isApiError, unwrap } from '../../../api/errors.ts';
import { sendKeepalive } from '../../../api/keepalive.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { dismissToast, showToast } from '../../../components/toast-store.ts';

export type Highlight = components['schemas']['Highlight'];
export type NewHighlight = components['schemas']['CreateHighlightRequest'];
type Page = components['schemas']['Webpage'];

/** How long a highlight's delete can be undone before it is sent (as for webpages). */
export const HIGHLIGHT_UNDO_WINDOW_MS = 5000;
/** Ids of highlights shown before the server gave them theirs. */
const PENDING_PREFIX = 'pending:';

export function isPendingHighlight(id: string): boolean {
  return id.startsWith(PENDING_PREFIX);
}

export interface HighlightCache {
  webpageId: string;
  /** The query key of the page's detail (a `Webpage` with its `highlights`). */
  pageKey: QueryKey;
  /** Refreshes whatever else shows the page's highlights (lists' counts, views). */
  afterChange?: () => Promise<unknown>;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createHighlightRequest(webpageId: string, body: NewHighlight): Promise<string> {
  return unwrap(
    apiClient.POST('/webpages/{id}/highlights', { params: { path: { id: webpageId } }, body }),
  );
}

export function patchHighlightRequest(
  webpageId: string,
  highlightId: string,
  note: string,
): Promise<Page> {
  return unwrap(
    apiClient.PATCH('/webpages/{id}/highlights/{highlight_id}', {
      params: { path: { id: webpageId, highlight_id: highlightId } },
      body: { note },
    }),
  );
}

export function deleteHighlightRequest(webpageId: string, highlightId: string): Promise<Page> {
  return unwrap(
    apiClient.DELETE('/webpages/{id}/highlights/{highlight_id}', {
      params: { path: { id: webpageId, highlight_id: highlightId } },
    }),
  );
}

let pendingCount = 0;

/** The highlight as the page will carry it: HamsterBase's shape. */
export function highlightFromRequest(id: string, body: NewHighlight, now: number): Highlight {
  return {
    highlightId: id,
    type: 1,
    marker: { meta: { textBefore: body.textBefore, textAfter: body.textAfter } },
    text: body.text,
    ...(body.note === undefined ? {} : { note: body.note }),
    ...(body.tenThousandth === undefined ? {} : { tenThousandth: body.tenThousandth }),
    editTime: now,
  };
}

/** Makes a highlight: drawn at once, taken back with a message if the server refuses. */
export function useCreateHighlight({ webpageId, pageKey, afterChange }: HighlightCache) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewHighlight) => createHighlightRequest(webpageId, body),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: pageKey });
      const previous = queryClient.getQueryData<Page>(pageKey);
      const pendingId = `${PENDING_PREFIX}${++pendingCount}`;
      queryClient.setQueryData<Page>(pageKey, (old) =>
        old
          ? {
              ...old,
              highlights: [...old.highlights, highlightFromRequest(pendingId, body, Date.now())],
            }
          : old,
      );
      return { previous, pendingId };
    },
    onError: (error, _body, context) => {
      if (context) {
        queryClient.setQueryData<Page>(pageKey, (old) =>
          old
            ? {
                ...old,
                highlights: old.highlights.filter((h) => h.highlightId !== context.pendingId),
              }
            : old,
        );
      }
      showToast({ tone: 'error', message: `Could not save the highlight: ${errorText(error)}` });
    },
    onSuccess: (highlightId, _body, context) => {
      queryClient.setQueryData<Page>(pageKey, (old) =>
        old
          ? {
              ...old,
              highlights: old.highlights.map((h) =>
                h.highlightId === context.pendingId ? { ...h, highlightId } : h,
              ),
            }
          : old,
      );
    },
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: pageKey }), afterChange?.()]),
  });
}

/** Edits a highlight's note; the page shows the server's answer. */
export function usePatchHighlightNote({ webpageId, pageKey, afterChange }: HighlightCache) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ highlightId, note }: { highlightId: string; note: string }) =>
      patchHighlightRequest(webpageId, highlightId, note),
    onSuccess: (page) => queryClient.setQueryData(pageKey, page),
    onSettled: () => afterChange?.(),
  });
}

interface PendingDelete {
  webpageId: string;
  highlightId: string;
  timer: ReturnType<typeof setTimeout>;
}

const pendingDeletes = new Set<PendingDelete>();

const highlightPath = (webpageId: string, highlightId: string) =>
  `/webpages/${encodeURIComponent(webpageId)}/highlights/${encodeURIComponent(highlightId)}`;

/** The app is going away: deletes still inside their undo window are sent now. */
function sendPendingDeletesNow() {
  for (const entry of pendingDeletes) {
    clearTimeout(entry.timer);
    sendKeepalive('DELETE', highlightPath(entry.webpageId, entry.highlightId));
  }
  pendingDeletes.clear();
  window.removeEventListener('pagehide', sendPendingDeletesNow);
}

function forgetDelete(entry: PendingDelete): boolean {
  if (!pendingDeletes.delete(entry)) return false;
  clearTimeout(entry.timer);
  if (pendingDeletes.size === 0) window.removeEventListener('pagehide', sendPendingDeletesNow);
  return true;
}

/**
 * Deletes a highlight after an undo window: it leaves the page and the panel at once, a message
 * offers Undo, and the DELETE is sent when the window closes (or at once if the app goes away). A
 * refused delete puts the highlight back and says why.
 */
export function useDeleteHighlightWithUndo(
  { webpageId, pageKey, afterChange }: HighlightCache,
  windowMs: number = HIGHLIGHT_UNDO_WINDOW_MS,
) {
  const queryClient = useQueryClient();
  const hidden = useRef(new Map<string, Highlight>());

  const restore = useCallback(
    (highlight: Highlight) =>
      queryClient.setQueryData<Page>(pageKey, (old) =>
        old && !old.highlights.some((h) => h.highlightId === highlight.highlightId)
          ? { ...old, highlights: [...old.highlights, highlight] }
          : old,
      ),
    [queryClient, pageKey],
  );

  // A refetch while a delete waits would bring the highlight back: keep it out of the cache.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || !hidden.current.size) return;
        const page = queryClient.getQueryData<Page>(pageKey);
        if (!page?.highlights.some((h) => hidden.current.has(h.highlightId))) return;
        queryClient.setQueryData<Page>(pageKey, {
          ...page,
          highlights: page.highlights.filter((h) => !hidden.current.has(h.highlightId)),
        });
      }),
    [queryClient, pageKey],
  );

  return useCallback(
    (highlight: Highlight) => {
      const { highlightId } = highlight;
      hidden.current.set(highlightId, highlight);
      queryClient.setQueryData<Page>(pageKey, (old) =>
        old
          ? { ...old, highlights: old.highlights.filter((h) => h.highlightId !== highlightId) }
          : old,
      );
      if (pendingDeletes.size === 0) window.addEventListener('pagehide', sendPendingDeletesNow);
      const commit = async () => {
        if (!forgetDelete(entry)) return;
        dismissToast(toastId);
        try {
          const page = await deleteHighlightRequest(webpageId, highlightId);
          hidden.current.delete(highlightId);
          queryClient.setQueryData(pageKey, page);
        } catch (error) {
          hidden.current.delete(highlightId);
          // Already gone (deleted elsewhere): what the reader asked for.
          if (!(isApiError(error) && error.status === 404)) {
            restore(highlight);
            showToast({
              tone: 'error',
              message: `Could not delete the highlight: ${errorText(error)}`,
            });
          }
        }
        await Promise.all([queryClient.invalidateQueries({ queryKey: pageKey }), afterChange?.()]);
      };
      const entry: PendingDelete = {
        webpageId,
        highlightId,
        timer: setTimeout(() => void commit(), windowMs),
      };
      pendingDeletes.add(entry);
      const toastId = showToast({
        message: 'Deleted the highlight',
        durationMs: null,
        action: {
          label: 'Undo',
          accessibleLabel: 'Undo: Deleted the highlight',
          run: () => {
            if (!forgetDelete(entry)) return;
            dismissToast(toastId);
            hidden.current.delete(highlightId);
            restore(highlight);
            showToast({ tone: 'success', message: 'Restored the highlight' });
          },
        },
      });
    },
    [queryClient, pageKey, webpageId, afterChange, restore, windowMs],
  );
}
