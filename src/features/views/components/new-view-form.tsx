import { useId, useState, type FormEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import type { components } from '../../../api/schema.gen.ts';
import { useCreateView, type CreateViewInput } from '../api/create-view.ts';
import type { WebpagesView } from '../api/list-views.ts';
import { VIEW_SORT_LABELS } from '../view-summary.ts';

type ViewFilterInput = components['schemas']['ViewFilterInput'];
type Choice = 'any' | 'yes' | 'no';

export interface NewViewFormProps {
  onCreated?: (view: WebpagesView) => void;
  onCancel?: () => void;
}

interface FormState {
  title: string;
  description: string;
  sort: number;
  enableLimit: boolean;
  limit: string;
  match: 'and' | 'or';
  liked: Choice;
  read: Choice;
  annotated: Choice;
  labels: string;
}

const initialState: FormState = {
  title: '',
  description: '',
  sort: 4,
  enableLimit: false,
  limit: '25',
  match: 'and',
  liked: 'any',
  read: 'any',
  annotated: 'any',
  labels: '',
};

/** The view's filters from the form's simple choices. */
function filtersFromForm(state: FormState): ViewFilterInput[] {
  const filters: ViewFilterInput[] = [];
  if (state.liked !== 'any')
    filters.push({ type: 0, key: 'liked', operator: state.liked === 'yes' });
  if (state.read !== 'any') {
    filters.push({ type: 0, key: 'read-status', operator: state.read === 'yes' });
  }
  if (state.annotated !== 'any') {
    // "With highlights": more than 0; "without": exactly 0.
    filters.push({
      type: 1,
      key: 'annotation',
      operator: state.annotated === 'yes' ? 2 : 0,
      rightOperand: 0,
    });
  }
  const labels = [
    ...new Set(
      state.labels
        .split(',')
        .map((label) => label.trim())
        .filter(Boolean),
    ),
  ];
  if (labels.length) filters.push({ type: 2, key: 'label', operator: 0, rightOperand: labels });
  return filters;
}

/** Creates a view: title, description, sort, limit, match and a few common filters. */
export function NewViewForm({ onCreated, onCancel }: NewViewFormProps) {
  const id = useId();
  const [state, setState] = useState(initialState);
  const [titleError, setTitleError] = useState<string | null>(null);
  const create = useCreateView();
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setState((current) => ({ ...current, [key]: value }));

  const limit = Number(state.limit);
  const limitValid = Number.isInteger(limit) && limit >= 1 && limit <= 100_000;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const title = state.title.trim();
    if (!title) {
      setTitleError('A view needs a title.');
      return;
    }
    if (state.enableLimit && !limitValid) return;
    const input: CreateViewInput = {
      title,
      description: state.description.trim(),
      sort: state.sort,
      enableLimit: state.enableLimit,
      limit: limitValid ? limit : 25,
      match: state.match,
      filters: filtersFromForm(state),
    };
    create.mutate(input, {
      onSuccess: (view) => {
        setState(initialState);
        onCreated?.(view);
      },
    });
  };

  const choice = (key: 'liked' | 'read' | 'annotated', label: string, yes: string, no: string) => (
    <div className="form__field form__field--inline">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <select
        id={`${id}-${key}`}
        value={state[key]}
        onChange={(event) => set(key, event.target.value as Choice)}
      >
        <option value="any">Any</option>
        <option value="yes">{yes}</option>
        <option value="no">{no}</option>
      </select>
    </div>
  );

  return (
    <form
      className="form form--panel"
      onSubmit={onSubmit}
      aria-labelledby={`${id}-heading`}
      noValidate
    >
      <h2 id={`${id}-heading`} className="section-title">
        New view
      </h2>
      <div className="form__field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          value={state.title}
          maxLength={500}
          required
          aria-invalid={titleError ? true : undefined}
          aria-describedby={titleError ? `${id}-title-error` : undefined}
          onChange={(event) => {
            set('title', event.target.value);
            setTitleError(null);
          }}
        />
        {titleError ? (
          <p id={`${id}-title-error`} className="form__error">
            {titleError}
          </p>
        ) : null}
      </div>
      <div className="form__field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          value={state.description}
          maxLength={5000}
          rows={2}
          onChange={(event) => set('description', event.target.value)}
        />
      </div>
      <fieldset className="form__group">
        <legend>Filters</legend>
        {choice('liked', 'Liked', 'Liked', 'Not liked')}
        {choice('read', 'Read', 'Read', 'Unread')}
        {choice('annotated', 'Highlights', 'With highlights', 'Without highlights')}
        <div className="form__field form__field--inline">
          <label htmlFor={`${id}-labels`}>Labels (all of, comma-separated)</label>
          <input
            id={`${id}-labels`}
            value={state.labels}
            onChange={(event) => set('labels', event.target.value)}
          />
        </div>
        <div className="form__field form__field--inline">
          <label htmlFor={`${id}-match`}>Match</label>
          <select
            id={`${id}-match`}
            value={state.match}
            onChange={(event) => set('match', event.target.value as 'and' | 'or')}
          >
            <option value="and">All filters</option>
            <option value="or">Any filter</option>
          </select>
        </div>
      </fieldset>
      <div className="form__row">
        <div className="form__field form__field--inline">
          <label htmlFor={`${id}-sort`}>Sort</label>
          <select
            id={`${id}-sort`}
            value={state.sort}
            onChange={(event) => set('sort', Number(event.target.value))}
          >
            {VIEW_SORT_LABELS.map((label, sort) => (
              <option key={label} value={sort}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field form__field--inline form__field--check">
          <input
            id={`${id}-enable-limit`}
            type="checkbox"
            checked={state.enableLimit}
            onChange={(event) => set('enableLimit', event.target.checked)}
          />
          <label htmlFor={`${id}-enable-limit`}>Show only the first</label>
          <input
            id={`${id}-limit`}
            className="input--narrow"
            type="number"
            min={1}
            max={100000}
            aria-label="Number of webpages"
            disabled={!state.enableLimit}
            aria-invalid={state.enableLimit && !limitValid ? true : undefined}
            value={state.limit}
            onChange={(event) => set('limit', event.target.value)}
          />
        </div>
      </div>
      {create.error ? (
        <p className="form__error" role="alert">
          Could not create the view: {create.error.message}
        </p>
      ) : null}
      <div className="form__actions">
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create view'}
        </Button>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
      </div>
    </form>
  );
}
