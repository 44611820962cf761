import { useId, useState, type FormEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { useCreateView } from '../api/create-view.ts';
import type { WebpagesView } from '../api/list-views.ts';
import { useSaveView } from '../api/save-view.ts';
import {
  draftFromRequest,
  draftFromView,
  hasErrors,
  MAX_DESCRIPTION_LENGTH,
  MAX_LIMIT,
  MAX_TITLE_LENGTH,
  selectionOf,
  toRequest,
  validateDraft,
  type CreateViewRequest,
  type DraftErrors,
  type ViewDraft,
  type ViewFilterInput,
  type ViewMatch,
} from '../view-draft.ts';
import { VIEW_SORT_LABELS } from '../view-summary.ts';
import { FilterBuilder, type FilterSuggestions } from './filter-builder.tsx';
import { FilterChips } from './filter-chips.tsx';
import { ViewPreviewPanel } from './view-preview.tsx';

import '../views.css';

export interface ViewEditorProps {
  /** The view to edit; absent for a new view. */
  view?: WebpagesView;
  /** A new view's starting values (e.g. the list's filters). */
  initial?: Partial<CreateViewRequest>;
  /** What the starting values could not carry over (shown above the form). */
  notes?: readonly string[];
  /** Hosts and labels in use, offered in the filters. */
  suggestions?: FilterSuggestions;
  /** Saved: the view as the server has it (a new id when it had to be created again). */
  onSaved: (view: WebpagesView) => void;
  onCancel: () => void;
}

/** The builder's state: closed, a new filter, or the filter at `index`. */
type Building = null | { index: number | null };

const BUILDER_OPEN = 'Add or cancel the filter you are building first.';

/**
 * Creates or edits a view: title and description, filters as chips with a builder for every kind,
 * match all / any, sort, limit; a live preview of the matching webpages while editing.
 */
export function ViewEditor({
  view,
  initial,
  notes,
  suggestions,
  onSaved,
  onCancel,
}: ViewEditorProps) {
  const id = useId();
  const [draft, setDraft] = useState<ViewDraft>(() =>
    view ? draftFromView(view) : draftFromRequest(initial ?? {}),
  );
  const [errors, setErrors] = useState<DraftErrors>({});
  const [building, setBuilding] = useState<Building>(null);
  const [builderError, setBuilderError] = useState<string | null>(null);
  const create = useCreateView();
  const save = useSaveView();
  const mutation = view ? save : create;

  const set = <K extends keyof ViewDraft>(key: K, value: ViewDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    if (key in errors) {
      setErrors((current) => {
        const next = { ...current };
        delete next[key as keyof DraftErrors];
        return next;
      });
    }
  };
  const setFilters = (filters: ViewFilterInput[]) => set('filters', filters);

  const finishFilter = (filter: ViewFilterInput) => {
    const index = building?.index ?? null;
    setFilters(
      index === null
        ? [...draft.filters, filter]
        : draft.filters.map((current, i) => (i === index ? filter : current)),
    );
    setBuilding(null);
    setBuilderError(null);
  };

  const removeFilter = (index: number) => {
    setFilters(draft.filters.filter((_, i) => i !== index));
    if (building?.index === index) setBuilding(null);
    else if (building?.index != null && building.index > index) {
      setBuilding({ index: building.index - 1 });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateDraft(draft);
    setErrors(found);
    if (building) setBuilderError(BUILDER_OPEN);
    if (hasErrors(found) || building) {
      const first = found.title ? `${id}-title` : found.limit ? `${id}-limit` : null;
      if (first) document.getElementById(first)?.focus();
      return;
    }
    const request = toRequest(draft);
    if (view) {
      // The hooks say that it was saved (or created).
      save.mutate({ original: view, request }, { onSuccess: (result) => onSaved(result.view) });
    } else {
      create.mutate(request, { onSuccess: onSaved });
    }
  };

  const heading = view ? 'Edit view' : 'New view';
  const limitInvalid = Boolean(errors.limit);
  return (
    <div className="view-editor">
      <form
        className="form view-editor__form"
        aria-labelledby={`${id}-heading`}
        noValidate
        onSubmit={onSubmit}
      >
        <h1 id={`${id}-heading`} className="page__title">
          {heading}
        </h1>
        {notes?.length ? (
          <div className="view-editor__notes" role="note">
            <p>Not everything can be part of a view:</p>
            <ul>
              {notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </div>
        ) : null}

        <div className="form__field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            value={draft.title}
            maxLength={MAX_TITLE_LENGTH}
            required
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? `${id}-title-error` : undefined}
            onChange={(event) => set('title', event.target.value)}
          />
          {errors.title ? (
            <p id={`${id}-title-error`} className="form__error">
              {errors.title}
            </p>
          ) : null}
        </div>
        <div className="form__field">
          <label htmlFor={`${id}-description`}>Description</label>
          <textarea
            id={`${id}-description`}
            value={draft.description}
            maxLength={MAX_DESCRIPTION_LENGTH}
            rows={2}
            onChange={(event) => set('description', event.target.value)}
          />
        </div>

        <fieldset className="form__group view-editor__filters">
          <legend>Filters</legend>
          <fieldset className="view-editor__match">
            <legend>Show webpages that match</legend>
            {(
              [
                ['and', 'All filters'],
                ['or', 'Any filter'],
              ] as [ViewMatch, string][]
            ).map(([match, text]) => (
              <label key={match} className="filter-builder__radio">
                <input
                  type="radio"
                  name={`${id}-match`}
                  value={match}
                  checked={draft.match === match}
                  onChange={() => set('match', match)}
                />
                {text}
              </label>
            ))}
          </fieldset>
          {draft.filters.length ? (
            <FilterChips
              label="Filters of the view"
              filters={draft.filters}
              editing={building?.index ?? null}
              onEdit={(index) => {
                setBuilding({ index });
                setBuilderError(null);
              }}
              onRemove={removeFilter}
            />
          ) : (
            <p className="form__hint">No filters: the view shows every webpage.</p>
          )}
          {errors.filters ? <p className="form__error">{errors.filters}</p> : null}
          {building ? (
            <FilterBuilder
              // A new builder for each filter edited.
              key={building.index ?? 'new'}
              filter={building.index === null ? undefined : draft.filters[building.index]}
              suggestions={suggestions}
              onDone={finishFilter}
              onCancel={() => {
                setBuilding(null);
                setBuilderError(null);
              }}
            />
          ) : (
            <div>
              <Button onClick={() => setBuilding({ index: null })}>Add a filter</Button>
            </div>
          )}
          {builderError ? (
            <p className="form__error" role="alert">
              {builderError}
            </p>
          ) : null}
        </fieldset>

        <fieldset className="form__group">
          <legend>Order and limit</legend>
          <div className="form__field form__field--inline">
            <label htmlFor={`${id}-sort`}>Sort</label>
            <select
              id={`${id}-sort`}
              value={draft.sort}
              onChange={(event) => set('sort', Number(event.target.value))}
            >
              {VIEW_SORT_LABELS.map((label, sort) => (
                <option key={label} value={sort}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="form__field form__field--inline">
            <input
              id={`${id}-enable-limit`}
              type="checkbox"
              checked={draft.enableLimit}
              onChange={(event) => set('enableLimit', event.target.checked)}
            />
            <label htmlFor={`${id}-enable-limit`}>Show only the first</label>
            <input
              id={`${id}-limit`}
              className="input--narrow"
              type="number"
              min={1}
              max={MAX_LIMIT}
              aria-label="Number of webpages"
              disabled={!draft.enableLimit}
              aria-invalid={limitInvalid ? true : undefined}
              aria-describedby={limitInvalid ? `${id}-limit-error` : undefined}
              value={draft.limit}
              onChange={(event) => set('limit', event.target.value)}
            />
            <span aria-hidden="true">webpages</span>
          </div>
          {errors.limit ? (
            <p id={`${id}-limit-error`} className="form__error">
              {errors.limit}
            </p>
          ) : null}
        </fieldset>

        {mutation.error ? (
          <p className="form__error" role="alert">
            {view ? 'Could not save the view' : 'Could not create the view'}:{' '}
            {mutation.error.message}
          </p>
        ) : null}
        <div className="form__actions">
          <Button type="submit" variant="primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving…' : view ? 'Save changes' : 'Create view'}
          </Button>
          <Button onClick={onCancel} disabled={mutation.isPending}>
            Cancel
          </Button>
        </div>
      </form>
      <ViewPreviewPanel input={selectionOf(draft)} />
    </div>
  );
}
