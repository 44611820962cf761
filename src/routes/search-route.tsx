import { useSearchParams } from 'react-router-dom';

import { SearchPage } from '../features/search/components/search-page.tsx';

export function Component() {
  const [params] = useSearchParams();
  const q = params.get('q')?.trim();
  return (
    <>
      <title>{q ? `${q} · Search · Folio` : 'Search · Folio'}</title>
      <SearchPage />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
