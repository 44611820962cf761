import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';

import { authStatus } from '../../../api/client.ts';
import { Button } from '../../../components/button.tsx';
import { showToast } from '../../../components/toast-store.ts';
import {
  loadConnectionSettings,
  normalizeBaseUrl,
  saveConnectionSettings,
} from '../../../lib/connection-settings.ts';
import { paths } from '../../../lib/paths.ts';
import { checkConnection } from '../api/check-connection.ts';

const INVALID_URL = 'Enter an http:// or https:// address, e.g. http://localhost:5178.';

export interface SettingsPageProps {
  /** More settings after the connection's (the theme, About). */
  children?: ReactNode;
}

/** Where the archive is and its token: edit, test with the entered values, save. */
export function SettingsPage({ children }: SettingsPageProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [initial] = useState(loadConnectionSettings);
  const [baseUrl, setBaseUrl] = useState(initial.baseUrl);
  const [token, setToken] = useState(initial.token);
  const [showToken, setShowToken] = useState(false);
  const [urlError, setUrlError] = useState<string | null>(null);
  const check = useMutation({ mutationFn: checkConnection });

  const edited = () => {
    setUrlError(null);
    check.reset();
  };

  const entered = () => {
    const normalized = normalizeBaseUrl(baseUrl);
    if (!normalized) setUrlError(INVALID_URL);
    return normalized ? { baseUrl: normalized, token: token.trim() } : null;
  };

  const onTest = () => {
    const settings = entered();
    if (settings) check.mutate(settings);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const settings = entered();
    if (!settings) return;
    saveConnectionSettings(settings);
    // Everything cached came from the old connection.
    queryClient.clear();
    authStatus.reset();
    showToast({
      tone: 'success',
      message: `Saved: Folio now uses the archive at ${settings.baseUrl}`,
    });
    navigate(paths.home());
  };

  const result = check.data;

  return (
    <section className="page page--narrow" aria-labelledby={`${id}-title`}>
      <header className="page__header">
        <h1 id={`${id}-title`} className="page__title">
          Settings
        </h1>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate>
        <h2 className="section-title">Archive connection</h2>
        <p className="muted">
          Folio talks to a Folio server or a HamsterBase server through its public API. The Folio
          server prints its address with the token when it starts; a HamsterBase token comes from
          HamsterBase&apos;s own settings.
        </p>
        <div className="form__field">
          <label htmlFor={`${id}-url`}>Base URL</label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            value={baseUrl}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${id}-url-error` : `${id}-url-hint`}
            onChange={(event) => {
              setBaseUrl(event.target.value);
              edited();
            }}
          />
          {urlError ? (
            <p id={`${id}-url-error`} className="form__error">
              {urlError}
            </p>
          ) : (
            <p id={`${id}-url-hint`} className="form__hint">
              Without /public/api/v1, e.g. {window.location.origin}
            </p>
          )}
        </div>
        <div className="form__field">
          <label htmlFor={`${id}-token`}>Token</label>
          <div className="input-group">
            <input
              id={`${id}-token`}
              type={showToken ? 'text' : 'password'}
              autoComplete="off"
              spellCheck={false}
              value={token}
              onChange={(event) => {
                setToken(event.target.value);
                edited();
              }}
            />
            <Button
              aria-controls={`${id}-token`}
              aria-label={showToken ? 'Hide token' : 'Show token'}
              onClick={() => setShowToken((shown) => !shown)}
            >
              {showToken ? 'Hide' : 'Show'}
            </Button>
          </div>
        </div>
        <div className="form__actions">
          <Button onClick={onTest} disabled={check.isPending}>
            {check.isPending ? 'Testing…' : 'Test connection'}
          </Button>
          <Button type="submit" variant="primary">
            Save
          </Button>
        </div>
        <p
          className={result ? (result.ok ? 'check check--ok' : 'check check--failed') : 'check'}
          role="status"
        >
          {result?.message ?? ''}
          {result && !result.ok && result.error.kind === 'offline' ? (
            <span className="check__hint">
              {' '}
              Check the address; a server on another origin must allow it (CORS).
            </span>
          ) : null}
        </p>
      </form>
      {children}
    </section>
  );
}
