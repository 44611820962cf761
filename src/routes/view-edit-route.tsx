import { useQuery, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router-dom';

import { PageLoading } from '../components/skeleton.tsx';
import { facetsOptions } from '../features/webpages/api/get-facets.ts';
import { viewOptions } from '../features/views/api/get-view.ts';
import { ViewEditor } from '../features/views/components/view-editor.tsx';
import { ViewFeedSection } from '../features/views/components/view-feed-section.tsx';
import { paths } from '../lib/paths.ts';
import { requireParam } from './route-params.ts';

export function loader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    await queryClient.ensureQueryData(viewOptions(requireParam(params, 'id')));
    return null;
  };
}

// The loader awaited the view (its failure is the route's ErrorBoundary): it is read with
// useSuspenseQuery. Suspending again happens only when the cache is reset (a new token).
export function Component() {
  return (
    <Suspense fallback={<PageLoading />}>
      <ViewEditRoute />
    </Suspense>
  );
}

/** Edits a view; a save that had to create the view again moves to its new address. */
function ViewEditRoute() {
  const id = requireParam(useParams(), 'id');
  const navigate = useNavigate();
  const { data: view } = useSuspenseQuery(viewOptions(id));
  // The hosts and labels in use are suggestions (not loaded first); the editor works without them.
  const { data: facets } = useQuery(facetsOptions());
  return (
    <>
      <title>{`Edit ${view.title || 'view'} · Folio`}</title>
      <ViewEditor
        key={view.id}
        view={view}
        suggestions={facets}
        onSaved={(saved) => void navigate(paths.view(saved.id), { replace: true })}
        onCancel={() => void navigate(paths.view(id))}
      />
      <ViewFeedSection viewId={view.id} />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
