import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';

import { HighlightsPage } from '../features/highlights/components/highlights-page.tsx';
import { facetsOptions } from '../features/webpages/api/get-facets.ts';

const NONE: readonly string[] = [];

/** `/highlights`: the highlights page, its filters offered from the facets the library loads. */
export function Component() {
  const [params] = useSearchParams();
  const q = params.get('q')?.trim();
  const facets = useQuery(facetsOptions());
  return (
    <>
      <title>{q ? `${q} · Highlights · Folio` : 'Highlights · Folio'}</title>
      <HighlightsPage
        labelOptions={facets.data?.labels.map((facet) => facet.value) ?? NONE}
        hostOptions={facets.data?.hosts.map((facet) => facet.value) ?? NONE}
      />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
