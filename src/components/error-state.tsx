import { Link } from 'react-router-dom';

import { isApiError, isConnectionProblem, isUnauthorized } from '../api/errors.ts';
import { loadConnectionSettings } from '../lib/connection-settings.ts';
import { paths } from '../lib/paths.ts';
import { Button } from './button.tsx';

export interface ErrorStateProps {
  error: unknown;
  /** Shows a Retry button. */
  onRetry?: () => void;
  /** Heading; defaults to a summary of the error. */
  title?: string;
}

function describe(error: unknown): { title: string; detail: string } {
  if (isUnauthorized(error)) {
    // A token was sent and refused, or none was (a first visit without the `#token=…` address):
    // then the banner, loaded after the first paint, says where the token is.
    return {
      title: loadConnectionSettings().token ? 'The server refused the token' : 'A token is needed',
      detail: 'Enter a valid token in the settings.',
    };
  }
  if (isApiError(error)) {
    switch (error.kind) {
      case 'offline':
        return { title: 'Server unreachable', detail: error.message };
      case 'invalid-response':
        return { title: 'Not a compatible server', detail: error.message };
      case 'parse':
        return { title: 'The server could not process the request', detail: error.message };
      case 'http':
        return {
          title: error.status === 404 ? 'Not found' : `Request failed (${error.status ?? 'HTTP'})`,
          detail: error.message,
        };
    }
  }
  return {
    title: 'Something went wrong',
    detail: error instanceof Error ? error.message : 'An unexpected error occurred.',
  };
}

/** An error with its message, a Retry and, for connection problems, a link to the settings. */
export function ErrorState({ error, onRetry, title }: ErrorStateProps) {
  const described = describe(error);
  return (
    <div className="error-state" role="alert">
      <p className="error-state__title">{title ?? described.title}</p>
      <p className="error-state__detail">{described.detail}</p>
      <div className="error-state__actions">
        {onRetry ? <Button onClick={onRetry}>Retry</Button> : null}
        {isConnectionProblem(error) ? <Link to={paths.settings()}>Open settings</Link> : null}
      </div>
    </div>
  );
}
