import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { showDone, showToast } from '../../../components/toast-store.ts';
import { facetsOptions } from '../api/get-facets.ts';
import type { Webpage } from '../api/get-webpage.ts';
import { usePatchWebpage } from '../api/patch-webpage.ts';
import { webpageKeys } from '../api/webpage-keys.ts';

const MAX_LABEL_LENGTH = 200;

export interface LabelEditorProps {
  webpage: Pick<Webpage, 'id' | 'labels'>;
}

type LabelChange = 'add' | 'remove';

/** The labels after adding or removing one (a label is there at most once). */
function applyChange(labels: readonly string[], change: LabelChange, label: string): string[] {
  const others = labels.filter((other) => other !== label);
  return change === 'add' ? [...others, label] : others;
}

const DONE: Record<LabelChange, string> = { add: 'Added the label', remove: 'Removed the label' };
const DOING: Record<LabelChange, string> = { add: 'add the label', remove: 'remove the label' };

/**
 * A webpage's labels as chips, each with a remove button, and a field to add one with suggestions
 * from the labels in use. Changes show at once and roll back if the server refuses; a message says
 * what was done (with Undo) or why it was not.
 */
export function LabelEditor({ webpage }: LabelEditorProps) {
  const { mutateAsync } = usePatchWebpage();
  const queryClient = useQueryClient();
  const facets = useQuery(facetsOptions());
  const [draft, setDraft] = useState('');
  const id = useId();
  const { labels } = webpage;

  const change = (kind: LabelChange, label: string, undo = false) => {
    // The labels as they are now (an Undo may come after other changes, or after leaving).
    const current =
      queryClient.getQueryData<Webpage>(webpageKeys.detail(webpage.id))?.labels ?? labels;
    const key = `labels:${webpage.id}:${label}`;
    mutateAsync({ id: webpage.id, patch: { labels: applyChange(current, kind, label) } }).then(
      () => {
        const message = `${DONE[kind]} “${label}”`;
        const inverse: LabelChange = kind === 'add' ? 'remove' : 'add';
        showDone(message, undo ? undefined : () => change(inverse, label, true), { key });
      },
      (error: unknown) => {
        showToast({
          key,
          tone: 'error',
          message: `Could not ${DOING[kind]} “${label}”: ${error instanceof Error ? error.message : String(error)}`,
        });
        // What was typed comes back, to try again.
        if (kind === 'add' && !undo) setDraft((typed) => typed || label);
      },
    );
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    const label = draft.trim();
    if (!label) return;
    setDraft('');
    if (labels.includes(label)) return;
    change('add', label);
  };
  const present = new Set(labels);
  const suggestions = (facets.data?.labels ?? []).filter((facet) => !present.has(facet.value));

  return (
    <div className="labels">
      {labels.length ? (
        <ul className="chips" aria-label="Labels">
          {labels.map((label) => (
            <li key={label} className="chip">
              <span className="chip__text">{label}</span>
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove label ${label}`}
                onClick={() => change('remove', label)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None</p>
      )}
      <form className="labels__add" onSubmit={add}>
        <input
          aria-label="New label"
          placeholder="New label"
          list={`${id}-suggestions`}
          maxLength={MAX_LABEL_LENGTH}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((facet) => (
            <option key={facet.value} value={facet.value} />
          ))}
        </datalist>
        <Button type="submit" disabled={!draft.trim()}>
          Add label
        </Button>
      </form>
    </div>
  );
}
