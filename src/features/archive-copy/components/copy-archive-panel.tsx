import { useId, useRef, useState, type FormEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { ArchiveApi } from '../../../../shared/archive-copy/archive-api.ts';
import {
  ApiTarget,
  copyArchive,
  type CopyProgress,
} from '../../../../shared/archive-copy/copy-archive.ts';
import { loadConnectionSettings, normalizeBaseUrl } from '../../../lib/connection-settings.ts';

type State =
  | { phase: 'idle' }
  | { phase: 'running'; progress: CopyProgress | null }
  | { phase: 'done'; progress: CopyProgress }
  | { phase: 'failed'; message: string; progress: CopyProgress | null };

/**
 * "Copy from another archive": every page of another server (a Folio or a HamsterBase) with its
 * labels, likes, read state and highlights, and its views, into the connected archive. It runs in
 * this tab; run it again to finish a copy that stopped (what is here is not copied twice).
 */
export function CopyArchivePanel({ onCopied }: { onCopied: () => Promise<void> }) {
  const id = useId();
  const [baseUrl, setBaseUrl] = useState('');
  const [token, setToken] = useState('');
  const [copyViews, setCopyViews] = useState(true);
  const [state, setState] = useState<State>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    const source = normalizeBaseUrl(baseUrl);
    if (source === null) {
      setState({
        phase: 'failed',
        message: 'Enter an http:// or https:// address.',
        progress: null,
      });
      return;
    }
    const connection = loadConnectionSettings();
    const controller = new AbortController();
    abort.current = controller;
    let last: CopyProgress | null = null;
    setState({ phase: 'running', progress: null });
    try {
      const progress = await copyArchive(
        new ArchiveApi({ baseUrl: source, token }),
        new ApiTarget(new ArchiveApi({ baseUrl: connection.baseUrl, token: connection.token })),
        {
          copyViews,
          signal: controller.signal,
          onProgress: (next) => {
            last = next;
            setState({ phase: 'running', progress: next });
          },
        },
      );
      setState({ phase: 'done', progress });
    } catch (error) {
      const message = controller.signal.aborted ? 'Stopped.' : (error as Error).message;
      setState({ phase: 'failed', message, progress: last });
    } finally {
      abort.current = null;
      // Lists, counts and views may have changed.
      await onCopied();
    }
  };

  const progress = state.phase === 'idle' ? null : state.progress;
  return (
    <form
      className="settings-panel"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void start(e)}
    >
      <h2 id={`${id}-title`} className="section-title">
        Copy from another archive
      </h2>
      <p className="muted">
        Copies every page of another archive (a Folio or a HamsterBase server) with its labels,
        likes, read state and highlights{copyViews ? ', and its views,' : ''} into this archive.
        Pages already here are not copied again: run it again to finish a copy that stopped. The
        other server must let this page call it (CORS): Folio does; if a HamsterBase refuses, use
        the command line instead:{' '}
        <code>
          npm run copy -- --from &lt;url&gt; --from-token &lt;token&gt; --to … --to-token …
        </code>
      </p>
      <div className="form__field">
        <label htmlFor={`${id}-url`}>Base URL of the other archive</label>
        <input
          id={`${id}-url`}
          type="url"
          required
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          placeholder="http://localhost:5178"
        />
      </div>
      <div className="form__field">
        <label htmlFor={`${id}-token`}>Its token</label>
        <input
          id={`${id}-token`}
          type="password"
          required
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
      </div>
      <label className="choice">
        <input
          type="checkbox"
          checked={copyViews}
          onChange={(event) => setCopyViews(event.target.checked)}
        />
        Also copy its views
      </label>
      <div className="form__actions">
        <Button type="submit" variant="primary" disabled={state.phase === 'running'}>
          Copy
        </Button>
        {state.phase === 'running' ? (
          <Button onClick={() => abort.current?.abort()}>Stop</Button>
        ) : null}
      </div>
      {progress ? (
        <div>
          <progress
            aria-label="Pages copied"
            value={progress.done}
            {...(progress.total === undefined ? {} : { max: Math.max(progress.total, 1) })}
          />
          <p role="status">
            {progress.done} / {progress.total ?? '?'} pages: {progress.copied} copied,{' '}
            {progress.already} already here, {progress.failed.length} failed
            {state.phase === 'done'
              ? `; views: ${progress.views.copied} copied, ${progress.views.already} already here. Done.`
              : ''}
          </p>
          {progress.failed.length > 0 ? (
            <ul aria-label="Pages that failed">
              {progress.failed.map((failure) => (
                <li key={failure.id}>
                  {failure.title || failure.id}: {failure.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {state.phase === 'failed' ? (
        <p className="form__error" role="alert">
          The copy stopped: {state.message}
        </p>
      ) : null}
    </form>
  );
}
