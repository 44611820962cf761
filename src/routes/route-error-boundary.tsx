import { isRouteErrorResponse, Link, useRevalidator, useRouteError } from 'react-router-dom';

import { ErrorState } from '../components/error-state.tsx';
import { paths } from '../lib/paths.ts';

/**
 * A route's error: the ApiError message, a Retry (runs the loaders again) and, for a refused token,
 * an unreachable or foreign server, a link to the settings.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFound />;
  }
  return (
    <div className="page">
      <ErrorState
        error={error}
        onRetry={revalidator.state === 'idle' ? () => void revalidator.revalidate() : undefined}
      />
    </div>
  );
}

export function NotFound() {
  return (
    <section className="page" aria-labelledby="not-found-title">
      <title>Not found · Folio</title>
      <h1 id="not-found-title" className="page__title">
        Page not found
      </h1>
      <p>
        Nothing lives at this address. <Link to={paths.home()}>Go to the library</Link>
      </p>
    </section>
  );
}
