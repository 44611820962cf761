import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, useParams, type LoaderFunctionArgs } from 'react-router-dom';

import { ErrorState } from '../components/error-state.tsx';
import { PageLoading } from '../components/skeleton.tsx';
import { displayTitle } from '../components/webpage-row.tsx';
import { webpageOptions } from '../features/webpages/api/get-webpage.ts';
import { DownloadOriginalButton } from '../features/webpages/components/download-original-button.tsx';
import { PreviewFrame } from '../features/preview/components/preview-frame.tsx';
import { paths } from '../lib/paths.ts';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { requireParam } from './route-params.ts';

export function loader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    await queryClient.ensureQueryData(webpageOptions(requireParam(params, 'id')));
    return null;
  };
}

/** The archived page alone, in the whole window, with a bar to go back to its details. */
export function Component() {
  const id = requireParam(useParams(), 'id');
  const { data: webpage, error, isPending, refetch } = useQuery(webpageOptions(id));
  if (isPending) return <PageLoading />;
  if (!webpage) return <ErrorState error={error} onRetry={() => void refetch()} />;
  const title = displayTitle(webpage);
  return (
    <div className="preview-page">
      <title>{`${title} · Folio`}</title>
      <header className="preview-page__bar">
        <Link to={paths.webpage(id)}>← Details</Link>
        <h1 className="preview-page__title">{title}</h1>
      </header>
      <main className="preview-page__frame">
        <PreviewFrame
          webpageId={webpage.id}
          ext={webpage.ext}
          title={webpage.title}
          fullWindow
          fallbackActions={<DownloadOriginalButton webpage={webpage} />}
        />
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
