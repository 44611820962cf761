import { useSyncExternalStore } from 'react';
import { Link, useLocation } from 'react-router-dom';

import { authStatus } from '../api/client.ts';
import { loadConnectionSettings } from '../lib/connection-settings.ts';
import { paths } from '../lib/paths.ts';

/** Shown while the server refuses the token, or none is set (the last API answer was a 401). */
export function AuthBanner() {
  const unauthorized = useSyncExternalStore(authStatus.subscribe, authStatus.isUnauthorized);
  const { pathname } = useLocation();
  if (!unauthorized || pathname === paths.settings()) return null;
  return (
    <div className="banner banner--warning" role="alert">
      {loadConnectionSettings().token ? (
        <span>The archive refused the access token.</span>
      ) : (
        <span>
          Folio needs its access token: open the address that <code>npm start</code> printed (the
          line with <code>#token=…</code>), or enter the token from the file{' '}
          <code>FOLIO_DATA_DIR/token</code> (<code>data/token</code> by default).
        </span>
      )}{' '}
      <Link to={paths.settings()}>Enter the token in Settings</Link>
    </div>
  );
}
