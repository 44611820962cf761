import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { facetsOptions } from '../api/get-facets.ts';
import type { Webpage } from '../api/get-webpage.ts';
import { usePatchWebpage } from '../api/patch-webpage.ts';

const MAX_LABEL_LENGTH = 200;

export interface LabelEditorProps {
  webpage: Pick<Webpage, 'id' | 'labels'>;
}

/**
 * A webpage's labels as chips, each with a remove button, and a field to add one with suggestions
 * from the labels in use. Changes show at once and roll back if the server refuses.
 */
export function LabelEditor({ webpage }: LabelEditorProps) {
  const patch = usePatchWebpage();
  const facets = useQuery(facetsOptions());
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const { labels } = webpage;

  const save = (next: string[]) => {
    setProblem(null);
    patch.mutate(
      { id: webpage.id, patch: { labels: next } },
      { onError: (error) => setProblem(`Could not change the labels: ${error.message}`) },
    );
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    const label = draft.trim();
    if (!label) return;
    setDraft('');
    if (labels.includes(label)) return;
    save([...labels, label]);
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
                onClick={() => save(labels.filter((other) => other !== label))}
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
      {problem ? (
        <p className="form__error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
