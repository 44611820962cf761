import type { QueryClient } from '@tanstack/react-query';

import { listViewsOptions } from '../features/views/api/list-views.ts';
import { ViewsPage } from '../features/views/components/views-page.tsx';

export function loader(queryClient: QueryClient) {
  return async () => {
    await queryClient.ensureQueryData(listViewsOptions());
    return null;
  };
}

export function Component() {
  return (
    <>
      <title>Views · Folio</title>
      <ViewsPage />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
