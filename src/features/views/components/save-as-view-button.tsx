import { useId, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { Button } from '../../../components/button.tsx';
import { paths } from '../../../lib/paths.ts';
import { useCreateView } from '../api/create-view.ts';
import { viewFromListSearch } from '../from-list-search.ts';
import { newViewState } from '../new-view-state.ts';
import { MAX_TITLE_LENGTH } from '../view-draft.ts';
import { describeOrder } from '../view-summary.ts';
import { FilterChips } from './filter-chips.tsx';

import '../views.css';

export interface SaveAsViewButtonProps {
  /** The library's URL search parameters (its filters and sort). */
  search: URLSearchParams;
}

/**
 * "Save as view" for the library: the list's filters and sort become a new view. Says what a
 * view cannot express (the format); "Customize…" opens the editor with the same values.
 */
export function SaveAsViewButton({ search }: SaveAsViewButtonProps) {
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateView();
  const key = search.toString();
  const { request, unsupported } = useMemo(
    () => viewFromListSearch(new URLSearchParams(key)),
    [key],
  );
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [titleError, setTitleError] = useState<string | null>(null);

  const start = () => {
    setTitle(request.title);
    setTitleError(null);
    create.reset();
    setOpen(true);
  };
  const close = () => setOpen(false);
  const panelRef = useRef<HTMLDivElement>(null);
  // Added as the form is put in the page (a layout effect): an Escape pressed as soon as it shows
  // closes it.
  useLayoutEffect(() => {
    if (!open) return;
    // Escape, or a press outside the button and its form, closes the form.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    const onPointerDown = (event: PointerEvent) => {
      const panel = panelRef.current;
      if (panel && event.target instanceof Node && !panel.contains(event.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) {
      setTitleError('A view needs a title.');
      return;
    }
    create.mutate(
      { ...request, title: trimmed },
      { onSuccess: (view) => void navigate(paths.view(view.id)) },
    );
  };

  return (
    <div className="save-view" ref={panelRef}>
      <Button
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => (open ? close() : start())}
      >
        Save as view…
      </Button>
      {open ? (
        <form
          id={`${id}-panel`}
          className="popover save-view__panel form"
          aria-labelledby={`${id}-heading`}
          noValidate
          onSubmit={onSubmit}
        >
          <h2 id={`${id}-heading`} className="section-title">
            Save as view
          </h2>
          <div className="form__field">
            <label htmlFor={`${id}-title`}>View title</label>
            <input
              id={`${id}-title`}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the user just asked for the form
              autoFocus
              value={title}
              maxLength={MAX_TITLE_LENGTH}
              aria-invalid={titleError ? true : undefined}
              aria-describedby={titleError ? `${id}-title-error` : undefined}
              onChange={(event) => {
                setTitle(event.target.value);
                setTitleError(null);
              }}
            />
            {titleError ? (
              <p id={`${id}-title-error`} className="form__error">
                {titleError}
              </p>
            ) : null}
          </div>
          <div className="save-view__summary">
            <span>The view shows:</span>
            {request.filters?.length ? (
              <FilterChips label="Filters of the new view" filters={request.filters} />
            ) : (
              <span>all webpages</span>
            )}
            <span>
              · {describeOrder({ sort: request.sort ?? 4, limit: 25, enableLimit: false })}
            </span>
          </div>
          {unsupported.length ? (
            <div className="view-editor__notes" role="note">
              <p>Not part of the view:</p>
              <ul>
                {unsupported.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {create.error ? (
            <p className="form__error" role="alert">
              Could not create the view: {create.error.message}
            </p>
          ) : null}
          <div className="form__actions">
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {create.isPending ? 'Saving…' : 'Save view'}
            </Button>
            <Link
              className="button"
              to={paths.viewNew()}
              state={newViewState({ ...request, title: title.trim() }, unsupported)}
            >
              Customize…
            </Link>
            <Button onClick={close}>Cancel</Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
