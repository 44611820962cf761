import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useSearchParams, type LoaderFunctionArgs } from 'react-router-dom';

import { ListSkeleton } from '../components/skeleton.tsx';
import { listWebpagesOptions } from '../features/webpages/api/list-webpages.ts';
import { WebpageListPage } from '../features/webpages/components/webpage-list-page.tsx';
import { parseListSearch } from '../features/webpages/filters.ts';

export function loader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const filters = parseListSearch(new URL(request.url).searchParams);
    await queryClient.ensureQueryData(listWebpagesOptions(filters));
    return null;
  };
}

// "Save as view" (the views feature) loads after the list is on screen.
const SaveAsViewButton = lazy(() =>
  import('../features/views/components/save-as-view-button.tsx').then((module) => ({
    default: module.SaveAsViewButton,
  })),
);

export function Component() {
  const [searchParams] = useSearchParams();
  return (
    <>
      <title>Library · Folio</title>
      <WebpageListPage
        toolbarExtra={
          <Suspense fallback={null}>
            <SaveAsViewButton search={searchParams} />
          </Suspense>
        }
      />
    </>
  );
}

/** The first load of the app on the list: the layout with placeholder rows. */
export function HydrateFallback() {
  return (
    <div className="page">
      <ListSkeleton label="Loading webpages…" />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
