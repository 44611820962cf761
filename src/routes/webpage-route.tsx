import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router-dom';

import { PageLoading } from '../components/skeleton.tsx';
import { displayTitle } from '../lib/display.ts';
import { webpageOptions } from '../features/webpages/api/get-webpage.ts';
import { webpagePreviewFileOptions } from '../features/webpages/api/get-webpage-content.ts';
import { DownloadOriginalButton } from '../features/webpages/components/download-original-button.tsx';
import { WebpageDetail } from '../features/webpages/components/webpage-detail.tsx';
import { useViewNeighbours } from '../features/views/use-view-neighbours.ts';
import { useReaderMode } from '../features/preview/reader/reader-mode.ts';
import { webpageViewContext } from '../lib/paths.ts';
import { importOnce } from '../lib/import-once.ts';
import { preloadAhead } from '../api/preload-part-links.ts';
import { requireParam } from './route-params.ts';
import { useWebpageHighlights } from './webpage-highlights.tsx';

// The preview (parsers, workers): its own chunk, asked for by the loader.
// One import, shared by the warm-ups, the loader and the lazy component (see `importOnce`).
const loadPreviewFrame = importOnce(
  () => import('../features/preview/components/preview-frame.tsx'),
);
const PreviewFrame = lazy(() =>
  loadPreviewFrame().then((module) => ({ default: module.PreviewFrame })),
);

/**
 * Loads the preview's code ahead of a visit and starts its worker (see `warmDetailRoute`): the
 * worker's script is fetched and compiled and its thread up before the click, not after it.
 */
export function preloadPreview(): void {
  loadPreviewFrame().then(
    (code) => code.warmPreviewWorker(),
    () => {},
  );
}

export function loader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    const id = requireParam(params, 'id');
    // The original file and the preview's code are asked for now, beside the metadata, not once
    // the detail has rendered: the preview is what the reader came for. Its worker starts too
    // (it comes up while the file downloads), and its build once the file and the page's kind are
    // in (it runs while the detail renders; the preview adopts it). A failure here (the file, a
    // chunk) only stops that: the route meets it again and reports it.
    const file = queryClient.fetchQuery(webpagePreviewFileOptions(id));
    // A linked page's images, as soon as the file says which, without waiting for the preview's
    // code or the metadata (a few at a time: the worker's script and the app's requests still
    // find a connection free).
    file.then(
      (original) => preloadAhead(original.preload),
      () => {},
    );
    const preview = loadPreviewFrame();
    preview.then(
      (code) => code.warmPreviewWorker(),
      () => {},
    );
    const webpage = await queryClient.ensureQueryData(webpageOptions(id));
    Promise.all([file, preview]).then(
      ([original, code]) => code.buildPreviewAhead(original, webpage.ext),
      () => {},
    );
    return null;
  };
}

export function Component() {
  const id = requireParam(useParams(), 'id');
  // Opened from a view (`paths.webpage(id, { view })`): Previous / Next move within the view.
  const viewId = webpageViewContext(useSearchParams()[0]);
  const viewNavigation = useViewNeighbours(id, viewId);
  const reader = useReaderMode();
  const highlights = useWebpageHighlights(id);
  return (
    <WebpageDetail
      webpageId={id}
      navigation={viewId ? viewNavigation : undefined}
      renderHighlights={highlights.renderPanel}
      renderPreview={(webpage) => (
        <>
          <title>{`${displayTitle(webpage)} · Folio`}</title>
          <Suspense fallback={<PageLoading />}>
            <PreviewFrame
              webpageId={webpage.id}
              contentOptions={webpagePreviewFileOptions}
              ext={webpage.ext}
              title={webpage.title}
              fallbackActions={<DownloadOriginalButton webpage={webpage} />}
              reader={reader}
              onDocument={highlights.onDocument}
              onReaderDocument={highlights.onDocument}
            />
          </Suspense>
          {highlights.toolbar}
        </>
      )}
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
