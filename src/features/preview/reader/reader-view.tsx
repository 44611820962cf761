// Reader mode (its own chunk, with Readability): the article of the preview's document, in a frame
// with the preview's guarantees (sandbox without scripts, the CSP first, the app's link policy and
// keys), with its typography settings; or, where the page has no article, a word saying so and
// the faithful preview (`fallback`).
import { useEffect, useMemo, useState, type ReactNode } from 'react';

import { contentDocument } from '../frame/archived-dom.ts';
import { protectFrame, type OpenUrl } from '../frame/intercept-links.ts';
import { extractArticleFromHtml, type Extraction } from './extract-article.ts';
import { applyReaderSettings, readerDocument } from './reader-document.ts';
import { loadReaderSettings, saveReaderSettings, type ReaderSettings } from './reader-settings.ts';
import { ReaderSettingsBar } from './reader-settings-bar.tsx';
import './reader.css';

/** The performance measure each extraction leaves (`performance.getEntriesByName`). */
export const EXTRACT_MEASURE = 'folio:reader-extract';

export interface ReaderViewProps {
  /** The preview's document (sanitised by the preview worker, resources as blob: URLs). */
  html: string;
  /** The URLs of the archive's resources that `html` uses (blob: and links): the only images shown. */
  urls: readonly string[];
  /** Where the preview's linked parts live, which the reader's CSP names too; else `null`. */
  partsBase: string | null;
  /** The page's title, for the frame's name and when the article has none. */
  title: string;
  openLink: OpenUrl;
  /** The Reader switch, shown at the start of the reader's bar. */
  toggle: ReactNode;
  /** The faithful preview, shown when the page has no article. */
  fallback: ReactNode;
  /**
   * Called with the reader frame's document once it is shown (and `null` when it goes away): the
   * seam for what draws in it from the parent, e.g. a highlight layer.
   */
  onDocument?: (doc: Document | null) => void;
}

function extract(html: string, urls: readonly string[], title: string): Extraction {
  const archive = new Set(urls);
  const start = performance.now();
  const extraction = extractArticleFromHtml(html, {
    isArchiveUrl: (url) => archive.has(url) || /^data:image\//i.test(url),
    fallbackTitle: title,
  });
  performance.measure(EXTRACT_MEASURE, { start, end: performance.now() });
  return extraction;
}

export function ReaderView({
  html,
  urls,
  partsBase,
  title,
  openLink,
  toggle,
  fallback,
  onDocument,
}: ReaderViewProps) {
  const extraction = useMemo(() => extract(html, urls, title), [html, urls, title]);
  const [settings, setSettings] = useState<ReaderSettings>(loadReaderSettings);
  const [frame, setFrame] = useState<HTMLIFrameElement | null>(null);
  const [doc, setDoc] = useState<Document | null>(null);
  const article = extraction.status === 'article' ? extraction.article : null;
  // Built once per article: a settings change is applied in place (scroll and document stay).
  const srcDoc = useMemo(
    () => (article ? readerDocument(article, settings, partsBase) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the settings of the first paint only
    [article, partsBase],
  );

  const changeSettings = (next: ReaderSettings) => {
    saveReaderSettings(next);
    setSettings(next);
  };

  // The link policy and the app's keys, on whatever document the frame shows.
  useEffect(() => {
    if (!frame || srcDoc === null) return;
    return protectFrame(frame, openLink, { shadowRoots: false });
  }, [frame, srcDoc, openLink]);

  // The frame's document once loaded (a srcdoc frame first shows an initial about:blank).
  useEffect(() => {
    if (!frame || srcDoc === null) return;
    const onLoad = () => setDoc(contentDocument(frame));
    frame.addEventListener('load', onLoad);
    // Loaded before this effect ran (a short article): take it now.
    const current = contentDocument(frame);
    if (current?.URL === 'about:srcdoc' && current.readyState === 'complete') onLoad();
    return () => {
      frame.removeEventListener('load', onLoad);
      setDoc(null);
    };
  }, [frame, srcDoc]);

  useEffect(() => {
    if (doc) applyReaderSettings(doc, settings);
  }, [doc, settings]);

  useEffect(() => {
    if (!onDocument) return;
    onDocument(doc);
    return () => onDocument(null);
  }, [doc, onDocument]);

  if (!article || srcDoc === null) {
    return (
      <>
        <div className="reader-bar">
          {toggle}
          <p className="reader-bar__note" role="status">
            No article found in this page
          </p>
        </div>
        {fallback}
      </>
    );
  }

  return (
    <>
      <div className="reader-bar">
        {toggle}
        <ReaderSettingsBar settings={settings} onChange={changeSettings} />
      </div>
      <iframe
        ref={setFrame}
        className="reader__frame"
        title={`Reader view of ${article.title}`}
        // Same origin so the app can catch link clicks and draw in it; never with allow-scripts.
        sandbox="allow-same-origin"
        referrerPolicy="no-referrer"
        srcDoc={srcDoc}
      />
    </>
  );
}
