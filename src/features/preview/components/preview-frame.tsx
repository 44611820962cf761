import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';

import type { ApiError } from '../../../api/errors.ts';
import type { PreviewExt } from '../document/build-preview.ts';
import { openInNewTab, protectFrame, type OpenUrl } from '../frame/intercept-links.ts';
import { usePreviewDocument, type BuildPreview } from '../hooks/use-preview-document.ts';
import { runPreviewWorker } from '../frame/run-preview-worker.ts';

/** The query of a webpage's original file as base64 (`GET /webpages/{id}/content`). */
export type ContentOptions = (
  webpageId: string,
) => UseQueryOptions<string, ApiError, string, QueryKey>;

export interface PreviewFrameProps {
  webpageId: string;
  /**
   * How the original file is read: the webpages feature's one query (`webpageContentOptions`),
   * handed by the route, so the preview and "Download original" share one cache entry.
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
}

const frameStyle: CSSProperties = {
  display: 'block',
  width: '100%',
  border: 0,
  // Archived pages expect a white canvas, whatever the app's theme.
  background: '#fff',
  colorScheme: 'light',
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
}: PreviewFrameProps) {
  const content = useQuery(contentOptions(webpageId));
  const preview = usePreviewDocument(content.data, ext, build);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const html = preview.status === 'ready' ? preview.html : null;
  const shadowRoots = preview.status === 'ready' && preview.shadowRoots;

  useEffect(() => {
    const frame = frameRef.current;
    if (html === null || !frame) return;
    return protectFrame(frame, openLink, { shadowRoots });
  }, [html, openLink, shadowRoots]);

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

  return (
    <div className={className} style={boxStyle}>
      <iframe
        ref={frameRef}
        className="preview__frame"
        title={`Preview of ${title.trim() || 'the saved page'}`}
        // Same origin so the app can catch link clicks; never together with allow-scripts.
        sandbox="allow-same-origin"
        referrerPolicy="no-referrer"
        srcDoc={html}
        style={{ ...frameStyle, flex: 1, minHeight: 0 }}
      />
    </div>
  );
}
