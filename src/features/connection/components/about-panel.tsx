import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { Button } from '../../../components/button.tsx';
import { loadConnectionSettings } from '../../../lib/connection-settings.ts';
import { version as clientVersion } from '../../../../package.json';
import { serverVersionOptions } from '../api/get-version.ts';
import '../settings.css';

/** What answers at the saved connection (`GET /version`), where, with which token, and this app. */
export function AboutPanel() {
  const id = useId();
  const [{ baseUrl, token }] = useState(loadConnectionSettings);
  const [showToken, setShowToken] = useState(false);
  const server = useQuery(serverVersionOptions(baseUrl, token !== ''));

  let serverText: string;
  if (server.isPending) serverText = 'Asking…';
  else if (server.isError) serverText = `Not available: ${server.error.message}`;
  else serverText = `${server.data.name} ${server.data.version}`;

  return (
    <section className="settings-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        About
      </h2>
      <dl className="about">
        <div className="about__row">
          <dt>Server</dt>
          <dd aria-busy={server.isPending}>{serverText}</dd>
        </div>
        <div className="about__row">
          <dt>Address</dt>
          <dd className="about__value">{baseUrl}</dd>
        </div>
        <div className="about__row">
          <dt>Token</dt>
          <dd>
            {token === '' ? (
              'Not set'
            ) : (
              <>
                <span className="about__value">{showToken ? token : 'Set (hidden)'}</span>{' '}
                <Button
                  variant="ghost"
                  aria-pressed={showToken}
                  onClick={() => setShowToken((shown) => !shown)}
                >
                  {showToken ? 'Hide token' : 'Show token'}
                </Button>
              </>
            )}
          </dd>
        </div>
        <div className="about__row">
          <dt>Folio app</dt>
          <dd>{clientVersion}</dd>
        </div>
      </dl>
    </section>
  );
}
