import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { Button } from '../../../components/button.tsx';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ListSkeleton } from '../../../components/skeleton.tsx';
import { paths } from '../../../lib/paths.ts';
import { useDeleteView } from '../api/delete-view.ts';
import { listViewsOptions, type WebpagesView } from '../api/list-views.ts';
import { describeFilters, describeOrder } from '../view-summary.ts';
import { NewViewForm } from './new-view-form.tsx';

function ViewItem({ view }: { view: WebpagesView }) {
  const remove = useDeleteView();
  return (
    <li className="view-item">
      <div className="view-item__main">
        <Link className="view-item__title" to={paths.view(view.id)}>
          {view.title || 'Untitled view'}
        </Link>
        {view.description ? <p className="view-item__description">{view.description}</p> : null}
        <p className="view-item__summary">
          {describeFilters(view)} · {describeOrder(view)}
        </p>
        {remove.error ? (
          <p className="form__error" role="alert">
            Could not delete: {remove.error.message}
          </p>
        ) : null}
      </div>
      <ConfirmButton
        label="Delete"
        question={`Delete the view “${view.title}”?`}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(view.id)}
      />
    </li>
  );
}

/** Every saved view, and a form to create one. */
export function ViewsPage() {
  const { data: views, error, isPending, refetch } = useQuery(listViewsOptions());
  const [creating, setCreating] = useState(false);

  let body;
  if (isPending) body = <ListSkeleton rows={4} label="Loading views…" />;
  else if (!views) body = <ErrorState error={error} onRetry={() => void refetch()} />;
  else if (!views.length) {
    body = (
      <EmptyState title="No views yet.">
        A view is a saved, filtered and sorted list of webpages.
      </EmptyState>
    );
  } else {
    body = (
      <ul className="view-list" aria-label="Views">
        {views.map((view) => (
          <ViewItem key={view.id} view={view} />
        ))}
      </ul>
    );
  }

  return (
    <section className="page" aria-labelledby="views-title">
      <header className="page__header">
        <h1 id="views-title" className="page__title">
          Views
        </h1>
        {creating ? null : (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New view
          </Button>
        )}
      </header>
      {creating ? (
        <NewViewForm onCreated={() => setCreating(false)} onCancel={() => setCreating(false)} />
      ) : null}
      {body}
    </section>
  );
}
