import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router-dom';

import { ErrorState } from '../components/error-state.tsx';
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

/** Edits a view; a save that had to create the view again moves to its new address. */
export function Component() {
  const id = requireParam(useParams(), 'id');
  const navigate = useNavigate();
  const { data: view, error, isPending, refetch } = useQuery(viewOptions(id));
  // The hosts and labels in use are suggestions; the editor works without them.
  const { data: facets } = useQuery(facetsOptions());
  if (isPending) return <PageLoading />;
  if (!view) return <ErrorState error={error} onRetry={() => void refetch()} />;
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
