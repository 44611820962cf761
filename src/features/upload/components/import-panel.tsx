import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';

import { Button } from '../../../components/button.tsx';
import { formatBytes } from '../../../lib/display.ts';
import type { ImportState, Refusal } from '../import/import-runner.ts';
import { importRunner } from '../import/import-store.ts';
import { invalidateAfterUpload } from '../use-upload-queue.ts';

/** Reasons listed per kind; the rest is counted. */
const LISTED = 200;

export function useImportState(): ImportState {
  return useSyncExternalStore(
    importRunner.subscribe,
    importRunner.getSnapshot,
    importRunner.getSnapshot,
  );
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "3 added, 1 already there, 2 refused, 4 skipped". */
export function describeImport(state: ImportState): string {
  const parts = [
    `${state.added} added`,
    `${state.existing + state.resumed} already there`,
    `${state.refused.length} refused`,
    `${state.skipped.length} skipped`,
  ];
  return parts.join(', ');
}

function Reasons({ title, list }: { title: string; list: readonly Refusal[] }) {
  if (list.length === 0) return null;
  return (
    <details className="import-panel__reasons">
      <summary>
        {title} ({list.length})
      </summary>
      <ul>
        {list.slice(0, LISTED).map((entry, index) => (
          <li key={`${entry.name}-${index}`}>
            <span className="import-panel__name">{entry.name}</span>: {entry.reason}
          </li>
        ))}
        {list.length > LISTED ? <li>… and {list.length - LISTED} more</li> : null}
      </ul>
    </details>
  );
}

/** The import of a dropped folder or .zip: a progress bar, then what happened to each file. */
export function ImportPanel() {
  const state = useImportState();
  const queryClient = useQueryClient();
  const stored = useRef(0);
  useEffect(() => {
    const finished = state.status === 'done' || state.status === 'stopped';
    if (finished && state.added + state.existing > stored.current) {
      stored.current = state.added + state.existing;
      invalidateAfterUpload(queryClient);
    }
    if (state.status === 'reading') stored.current = 0;
  }, [state, queryClient]);

  if (state.status === 'idle') return null;
  const running = state.status === 'running' || state.status === 'reading';
  return (
    <section className="import-panel" aria-labelledby="import-panel-title">
      <div className="upload-queue__header">
        <h2 className="section-title" id="import-panel-title">
          Import of {state.label}
        </h2>
        <div className="upload-queue__actions">
          {running ? (
            <Button onClick={importRunner.cancel}>Stop</Button>
          ) : (
            <Button onClick={importRunner.dismiss}>Close</Button>
          )}
        </div>
      </div>
      {state.status === 'reading' ? <p>Reading the list of files…</p> : null}
      {state.status !== 'reading' ? (
        <>
          <progress
            className="import-panel__progress"
            max={Math.max(1, state.totalBytes)}
            value={state.bytes}
            aria-label="Import progress"
          />
          <p className="import-panel__count">
            {state.done} of {plural(state.total, 'saved page')} · {formatBytes(state.bytes)} of{' '}
            {formatBytes(state.totalBytes)}
          </p>
        </>
      ) : null}
      {state.status === 'done' ? (
        <p className="import-panel__summary" role="status">
          Import finished: {describeImport(state)}
        </p>
      ) : null}
      {state.status === 'running' ? (
        <p className="import-panel__summary">So far: {describeImport(state)}</p>
      ) : null}
      {state.status === 'stopped' ? (
        <p className="import-panel__error" role="alert">
          The import stopped: {state.error} ({describeImport(state)})
        </p>
      ) : null}
      {state.resumed > 0 ? (
        <p className="import-panel__note">
          {plural(state.resumed, 'file was', 'files were')} imported earlier from this browser and
          not sent again.
        </p>
      ) : null}
      <Reasons title="Refused" list={state.refused} />
      <Reasons title="Skipped" list={state.skipped} />
    </section>
  );
}
