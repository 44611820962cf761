import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';

import { facetsOptions } from '../features/webpages/api/get-facets.ts';
import { ViewEditor } from '../features/views/components/view-editor.tsx';
import { readNewViewState } from '../features/views/new-view-state.ts';
import { paths } from '../lib/paths.ts';

/** A new view: empty, or from the values it was opened with ("Save as view" → Customize). */
export function Component() {
  const navigate = useNavigate();
  const { state } = useLocation();
  // The hosts and labels in use are suggestions; the editor works without them.
  const { data: facets } = useQuery(facetsOptions());
  const start = readNewViewState(state);
  return (
    <>
      <title>New view · Folio</title>
      <ViewEditor
        initial={start?.initial}
        notes={start?.notes}
        suggestions={facets}
        onSaved={(view) => void navigate(paths.view(view.id), { replace: true })}
        onCancel={() => void navigate(-1)}
      />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
