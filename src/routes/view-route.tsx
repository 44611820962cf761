import { useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useParams, type LoaderFunctionArgs } from 'react-router-dom';

import { PageLoading } from '../components/skeleton.tsx';
import { ExportButton } from '../features/webpages/components/export-button.tsx';
import { isHidden } from '../features/webpages/hidden-webpages.ts';
import { viewOptions } from '../features/views/api/get-view.ts';
import { viewWebpagesOptions } from '../features/views/api/list-view-webpages.ts';
import { ViewPage } from '../features/views/components/view-page.tsx';
import { requireParam } from './route-params.ts';

// The library's bulk actions (like, read, labels, delete with undo), on the view's selection;
// loaded on the first selection.
const BulkToolbar = lazy(() =>
  import('../features/webpages/components/bulk-toolbar.tsx').then((module) => ({
    default: module.BulkToolbar,
  })),
);

export function loader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    const id = requireParam(params, 'id');
    await Promise.all([
      queryClient.ensureQueryData(viewOptions(id)),
      queryClient.ensureInfiniteQueryData(viewWebpagesOptions(id)),
    ]);
    return null;
  };
}

// The loader awaited the view (its failure is the route's ErrorBoundary): it is read with
// useSuspenseQuery. Suspending again happens only when the cache is reset (a new token).
export function Component() {
  return (
    <Suspense fallback={<PageLoading />}>
      <ViewRoute />
    </Suspense>
  );
}

function ViewRoute() {
  const id = requireParam(useParams(), 'id');
  const { data: view } = useSuspenseQuery(viewOptions(id));
  return (
    <>
      <title>{`${view.title || 'View'} · Folio`}</title>
      <ViewPage
        key={id}
        viewId={id}
        isHidden={isHidden}
        actions={<ExportButton selection={{ viewId: id }} label="Export view" />}
        renderBulkActions={(props) => (
          <Suspense fallback={null}>
            <BulkToolbar {...props} />
          </Suspense>
        )}
      />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
