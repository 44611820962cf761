// The detail's highlights, composed from the highlights feature (drawing, selection toolbar,
// panel) and the webpages feature (the page's cache and what to refresh after a change). The
// preview tells the frame's document; reader mode can tell its own the same way.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';

import { showToast } from '../components/toast-store.ts';
import { useShortcuts } from '../components/use-shortcuts.ts';
import {
  useCreateHighlight,
  useDeleteHighlightWithUndo,
  usePatchHighlightNote,
  type Highlight,
  type HighlightCache,
} from '../features/highlights/api/highlight-edits.ts';
import { highlightKeys } from '../features/highlights/api/highlight-keys.ts';
import { HighlightsPanel } from '../features/highlights/components/highlights-panel.tsx';
import { SelectionToolbar } from '../features/highlights/components/selection-toolbar.tsx';
import { useHighlightLayer } from '../features/highlights/use-highlight-layer.ts';
import { webpageOptions, type Webpage } from '../features/webpages/api/get-webpage.ts';
import { invalidateWebpages } from '../features/webpages/api/patch-webpage.ts';
import { webpageKeys } from '../features/webpages/api/webpage-keys.ts';
import { paths } from '../lib/paths.ts';

/** `/webpages/<id>?highlight=<highlight id>`: the detail scrolls to that highlight and flashes it. */
export const HIGHLIGHT_PARAM = 'highlight';

const NO_HIGHLIGHTS: readonly Highlight[] = [];

export interface WebpageHighlights {
  /** Give it the frame's document (the preview's `onDocument`). */
  onDocument: (doc: Document | null) => void;
  /** The selection toolbar, drawn over the frame. */
  toolbar: ReactNode;
  /** The detail's Highlights panel. */
  renderPanel: (webpage: Webpage) => ReactNode;
}

export function useWebpageHighlights(webpageId: string): WebpageHighlights {
  const queryClient = useQueryClient();
  const { data: webpage } = useQuery(webpageOptions(webpageId));
  const [frame, setFrame] = useState<{ webpageId: string; doc: Document } | null>(null);
  // A document of the page shown before (Previous / Next) is not this page's.
  const doc = frame?.webpageId === webpageId ? frame.doc : null;
  const layer = useHighlightLayer(doc, webpage?.highlights ?? NO_HIGHLIGHTS);
  const onDocument = useCallback(
    (next: Document | null) => setFrame(next ? { webpageId, doc: next } : null),
    [webpageId],
  );

  const cache = useMemo<HighlightCache>(
    () => ({
      webpageId,
      pageKey: webpageKeys.detail(webpageId),
      // The highlights page (and its list gathered from a server without one) shows them too.
      afterChange: () =>
        Promise.all([
          invalidateWebpages(queryClient, [webpageId]),
          queryClient.invalidateQueries({ queryKey: highlightKeys.all }),
        ]),
    }),
    [queryClient, webpageId],
  );
  const create = useCreateHighlight(cache);
  const patchNote = usePatchHighlightNote(cache);
  const remove = useDeleteHighlightWithUndo(cache);

  const { selection, clearSelection, reveal } = layer;
  const highlightSelection = (note?: string) => {
    if (!selection) return;
    create.mutate({ ...selection.quote, ...(note ? { note } : {}) });
    clearSelection();
  };
  const copySelection = () => {
    if (!selection) return;
    navigator.clipboard.writeText(selection.quote.text).then(
      () => showToast({ tone: 'success', message: 'Copied' }),
      (error: unknown) =>
        showToast({
          tone: 'error',
          message: `Could not copy: ${error instanceof Error ? error.message : String(error)}`,
        }),
    );
  };
  // The note form belongs to one selection: another selection shows the buttons again.
  const [noteFor, setNoteFor] = useState<string | null>(null);
  const quote = selection?.quote.text ?? null;
  const writing = quote !== null && noteFor === quote;
  useShortcuts(
    {
      h: () => highlightSelection(),
      n: () => setNoteFor(quote),
    },
    selection !== null && !writing,
  );

  // Opened from a link to a highlight: shown once the page is drawn.
  const wanted = useSearchParams()[0].get(HIGHLIGHT_PARAM);
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (!wanted || !layer.ready) return;
    const key = `${webpageId}:${wanted}`;
    if (revealed.current === key) return;
    if (reveal(wanted)) revealed.current = key;
  }, [wanted, webpageId, layer.ready, reveal]);

  const toolbar = (
    <SelectionToolbar
      key={quote}
      selection={selection}
      onHighlight={(note) => {
        setNoteFor(null);
        highlightSelection(note);
      }}
      onCopy={copySelection}
      writing={writing}
      onWritingChange={(on) => setNoteFor(on ? quote : null)}
    />
  );
  const renderPanel = (page: Webpage) => (
    <HighlightsPanel
      page={{
        title: page.title,
        link: page.link ?? null,
        folioUrl: new URL(paths.webpage(page.id), document.baseURI).href,
      }}
      anchored={layer.anchored}
      ready={layer.ready}
      onReveal={reveal}
      onSaveNote={(highlightId, note) => patchNote.mutateAsync({ highlightId, note })}
      onDelete={remove}
    />
  );
  return { onDocument, toolbar, renderPanel };
}
