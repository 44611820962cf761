import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import {
  lazy,
  Suspense,
  useEffect,
  useEffectEvent,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';

import { Button } from '../../../components/button.tsx';
import { useShortcuts } from '../../../components/use-shortcuts.ts';

import type { ApiError } from '../../../api/errors.ts';
import type { OriginalFile } from '../../../api/original-file.ts';
import type { PreviewExt } from '../document/build-preview.ts';
import { appendPieces } from '../frame/append-pieces.ts';
import { openInNewTab, protectFrame, type OpenUrl } from '../frame/intercept-links.ts';
import { usePreviewDocument, type BuildPreview } from '../hooks/use-preview-document.ts';
import { runPreviewWorker, warmPreviewWorkerWhenIdle } from '../frame/run-preview-worker.ts';

export { warmPreviewWorker } from '../frame/run-preview-worker.ts';
export { buildPreviewAhead } from '../hooks/build-ahead.ts';
import type { ReaderMode } from '../reader/reader-mode.ts';

// Reader mode (Readability and its UI) loads only when it is switched on.
const ReaderView = lazy(() =>
  import('../reader/reader-view.tsx').then((module) => ({ default: module.ReaderView })),
);

/** The query of a webpage's original file (`GET /webpages/{id}/content`), as a Blob. */
export type ContentOptions = (
  webpageId: string,
) => UseQueryOptions<OriginalFile, ApiError, OriginalFile, QueryKey>;

export interface PreviewFrameProps {
  webpageId: string;
  /**
   * How the file to show is read: the webpages feature's query (`webpagePreviewFileOptions`),
   * handed by the route.
   */
  contentOptions: ContentOptions;
  ext: PreviewExt;
  /** The page's title, for the frame's accessible name (shown as text only). */
  title: string;
  /** Shown alone in the whole window (the full-window preview route). */
  fullWindow?: boolean;
  /** How the document is built; the Web Worker by default (tests run the same code in-process). */
  build?: BuildPreview;
  /** How an http(s) link clicked in the page is opened; a new tab without opener by default. */
  openLink?: OpenUrl;
  /**
   * What the reader can do instead when the page cannot be previewed (the route passes a
   * "Download original" button: the preview feature does not download by itself).
   */
  fallbackActions?: ReactNode;
  /** Offers the Reader switch (key `v`), on or off as `reader` says (see `useReaderMode`). */
  reader?: ReaderMode;
  /** The reader frame's document once shown, `null` when it goes away (for a highlight layer). */
  onReaderDocument?: (doc: Document | null) => void;
  /**
   * Told the frame's document once it has loaded (to draw over it from the app, e.g. highlights),
   * and null when it goes away.
   */
  onDocument?: (doc: Document | null) => void;
}

/** `doc.URL` / `doc.readyState` as the browser has them (the page's markup may shadow them). */
function documentState(doc: Document, name: 'URL' | 'readyState'): unknown {
  const get = Object.getOwnPropertyDescriptor(Document.prototype, name)?.get;
  return get ? Reflect.apply(get, doc, []) : undefined;
}

const frameStyle: CSSProperties = {
  display: 'block',
  width: '100%',
  border: 0,
  // Archived pages expect a white canvas, whatever the app's theme.
  background: '#fff',
  colorScheme: 'light',
};

const barStyle: CSSProperties = {
  display: 'flex',
  flexWrap: 'wrap',
  gap: '8px 16px',
  alignItems: 'center',
  padding: '0 0 2px',
};

/**
 * The saved page, rebuilt from the archive in a Web Worker and shown in a sandboxed frame: no
 * scripts, no network (CSP), no forms, no navigation (links are opened by the app in a new tab).
 */
export function PreviewFrame({
  webpageId,
  contentOptions,
  ext,
  title,
  fullWindow = false,
  build = runPreviewWorker,
  openLink = openInNewTab,
  fallbackActions,
  reader,
  onReaderDocument,
  onDocument,
}: PreviewFrameProps) {
  const content = useQuery(contentOptions(webpageId));
  const preview = usePreviewDocument(content.data, ext, build);
  // A state, not a ref: the frame comes and goes as reader mode is switched.
  const [frame, setFrame] = useState<HTMLIFrameElement | null>(null);
  const html = preview.status === 'ready' ? preview.html : null;
  const pieces = preview.status === 'ready' ? preview.pieces : null;
  const shadowRoots = preview.status === 'ready' && preview.shadowRoots;
  // The frame and document whose pieces are all in (a long page's, see append-pieces.ts).
  const [whole, setWhole] = useState<{ frame: HTMLIFrameElement; html: string } | null>(null);
  // Busy while a long page's rest is being written (`pieces` null) or added to the frame.
  const busy =
    html !== null &&
    (pieces === null || (pieces.length > 0 && (whole?.frame !== frame || whole.html !== html)));
  const toggleReader = () => reader?.setOn(!reader.on);
  useShortcuts({ v: toggleReader }, reader !== undefined);

  useEffect(() => {
    if (html === null || !frame) return;
    return protectFrame(frame, openLink, { shadowRoots });
  }, [frame, html, openLink, shadowRoots]);

  const tellDocument = useEffectEvent((doc: Document | null) => onDocument?.(doc));
  useEffect(() => {
    if (html === null || pieces === null || !frame) return;
    let shown: Document | null = null;
    // Appending to the document shown; stopped when another replaces it or the effect ends.
    let appending: AbortController | null = null;
    // The next page's worker, started once this one is whole and the browser idle.
    let stopWarming: (() => void) | undefined;
    const shownWhole = (doc: Document) => {
      tellDocument(doc);
      stopWarming ??= warmPreviewWorkerWhenIdle();
    };
    // The document is told once it is whole: what draws over it (highlights) needs all its text.
    const loaded = () => {
      const doc = frame.contentDocument;
      if (!doc || doc === shown) return;
      shown = doc;
      appending?.abort();
      if (pieces.length === 0) {
        shownWhole(doc);
        return;
      }
      const current = new AbortController();
      appending = current;
      appendPieces(doc, pieces, current.signal).then(
        () => {
          setWhole({ frame, html });
          shownWhole(doc);
        },
        () => {
          // Aborted: the preview went away or shows another document.
        },
      );
    };
    frame.addEventListener('load', loaded);
    // Loaded before this effect ran: the frame's document is already the page, not about:blank.
    const doc = frame.contentDocument;
    if (
      doc &&
      documentState(doc, 'URL') === 'about:srcdoc' &&
      documentState(doc, 'readyState') === 'complete'
    ) {
      loaded();
    }
    return () => {
      appending?.abort();
      stopWarming?.();
      frame.removeEventListener('load', loaded);
      tellDocument(null);
    };
  }, [frame, html, pieces]);

  const className = fullWindow ? 'preview preview--full' : 'preview';
  // The frame fills its parent's height: the parent decides it (the window's, below a header).
  const boxStyle: CSSProperties = { height: '100%', display: 'flex', flexDirection: 'column' };

  if (preview.status === 'error' && preview.failure === 'too-complex') {
    // Past the preview's bounds (time, size): the worker was stopped; the file is still there.
    return (
      <div className={className} style={boxStyle}>
        <div className="preview__error" role="alert">
          <p>This page is too complex to preview.</p>
          <p className="preview__reason">The preview stopped: {preview.message}.</p>
        </div>
        {fallbackActions}
      </div>
    );
  }

  if (content.isError || preview.status === 'error') {
    const reason = content.isError
      ? content.error.message
      : preview.status === 'error'
        ? preview.message
        : '';
    return (
      <div className={className} style={boxStyle}>
        <p className="preview__error" role="alert">
          This page could not be displayed: {reason}
        </p>
        {fallbackActions}
      </div>
    );
  }

  if (html === null) {
    return (
      <div className={className} style={boxStyle}>
        <p className="preview__status" role="status">
          {content.isPending ? 'Loading the saved page…' : 'Preparing the preview…'}
        </p>
      </div>
    );
  }

  const previewFrame = (
    <iframe
      ref={setFrame}
      className="preview__frame"
      title={`Preview of ${title.trim() || 'the saved page'}`}
      // Same origin so the app can catch link clicks; never together with allow-scripts.
      sandbox="allow-same-origin"
      referrerPolicy="no-referrer"
      srcDoc={html}
      // A long page is still being added to the frame (its first screen is shown).
      aria-busy={busy ? true : undefined}
      style={{ ...frameStyle, flex: 1, minHeight: 0 }}
    />
  );
  if (!reader) {
    return (
      <div className={className} style={boxStyle}>
        {previewFrame}
      </div>
    );
  }

  const toggle = (
    <Button aria-pressed={reader.on} aria-keyshortcuts="v" onClick={toggleReader}>
      Reader
    </Button>
  );
  const previewWithBar = (
    <>
      <div style={barStyle}>{toggle}</div>
      {previewFrame}
    </>
  );
  return (
    <div className={className} style={boxStyle}>
      {reader.on && preview.status === 'ready' && preview.whole !== null ? (
        <Suspense fallback={previewWithBar}>
          <ReaderView
            html={preview.whole}
            urls={preview.urls}
            partsBase={preview.partsBase}
            title={title}
            openLink={openLink}
            toggle={toggle}
            fallback={previewFrame}
            onDocument={onReaderDocument}
          />
        </Suspense>
      ) : (
        previewWithBar
      )}
    </div>
  );
}
