import { useSyncExternalStore } from 'react';
import { Link, useLocation } from 'react-router-dom';

import { authStatus } from '../api/client.ts';
import { paths } from '../lib/paths.ts';

/** Shown while the server refuses the token (the last API answer was a 401). */
export function AuthBanner() {
  const unauthorized = useSyncExternalStore(authStatus.subscribe, authStatus.isUnauthorized);
  const { pathname } = useLocation();
  if (!unauthorized || pathname === paths.settings()) return null;
  return (
    <div className="banner banner--warning" role="alert">
      <span>The archive refused the access token.</span>{' '}
      <Link to={paths.settings()}>Enter the token in Settings</Link>
    </div>
  );
}
