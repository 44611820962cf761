import { useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router-dom';

import { PageLoading } from '../components/skeleton.tsx';
import { displayTitle } from '../lib/display.ts';
import { webpageOptions } from '../features/webpages/api/get-webpage.ts';
import { webpagePreviewFileOptions } from '../features/webpages/api/get-webpage-content.ts';
import { DownloadOriginalButton } from '../features/webpages/components/download-original-button.tsx';
import { ReadingBar } from '../features/webpages/components/reading-bar.tsx';
import { PreviewFrame } from '../features/preview/components/preview-frame.tsx';
import { useViewNeighbours } from '../features/views/use-view-neighbours.ts';
import { paths, webpageViewContext } from '../lib/paths.ts';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { requireParam } from './route-params.ts';
import { useWebpageHighlights } from './webpage-highlights.tsx';

export function loader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    const id = requireParam(params, 'id');
    // The original file is asked for now, beside the metadata, not once the page has rendered.
    void queryClient.prefetchQuery(webpagePreviewFileOptions(id));
    await queryClient.ensureQueryData(webpageOptions(id));
    return null;
  };
}

// The loader awaited the webpage (its failure is the route's ErrorBoundary): it is read with
// useSuspenseQuery. Suspending again happens only when the cache is reset (a new token).
export function Component() {
  return (
    <Suspense fallback={<PageLoading />}>
      <WebpagePreviewRoute />
    </Suspense>
  );
}

/**
 * The archived page alone, in the whole window, with a bar to go back to its details, like it,
 * mark it as read and move to the previous / next page of the list or view it was opened in.
 */
function WebpagePreviewRoute() {
  const id = requireParam(useParams(), 'id');
  const { data: webpage } = useSuspenseQuery(webpageOptions(id));
  // Opened from a view's detail (`?view=`): Previous / Next move within the view.
  const viewId = webpageViewContext(useSearchParams()[0]);
  const viewNavigation = useViewNeighbours(id, viewId, paths.webpagePreview);
  // Highlights are drawn and made here too (listed on the detail).
  const highlights = useWebpageHighlights(id);
  const title = displayTitle(webpage);
  return (
    <div className="preview-page">
      <title>{`${title} · Folio`}</title>
      <ReadingBar webpage={webpage} navigation={viewId ? viewNavigation : undefined} />
      <main className="preview-page__frame">
        <PreviewFrame
          webpageId={webpage.id}
          contentOptions={webpagePreviewFileOptions}
          ext={webpage.ext}
          title={webpage.title}
          fullWindow
          fallbackActions={<DownloadOriginalButton webpage={webpage} />}
          onDocument={highlights.onDocument}
        />
        {highlights.toolbar}
      </main>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <main className="preview-page preview-page--error">
      <RouteErrorBoundary />
    </main>
  );
}
