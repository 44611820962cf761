import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';

import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { ListSkeleton } from '../../../components/skeleton.tsx';
import { paths } from '../../../lib/paths.ts';
import { useDeleteView } from '../api/delete-view.ts';
import { listViewsOptions, type WebpagesView } from '../api/list-views.ts';
import { describeOrder } from '../view-summary.ts';
import { FilterChips } from './filter-chips.tsx';

import '../views.css';

function ViewItem({ view }: { view: WebpagesView }) {
  const remove = useDeleteView();
  const title = view.title || 'Untitled view';
  return (
    <li className="view-item">
      <div className="view-item__main">
        <Link className="view-item__title" to={paths.view(view.id)} dir="auto">
          {title}
        </Link>
        {view.description ? (
          <p className="view-item__description" dir="auto">
            {view.description}
          </p>
        ) : null}
        <div className="view-item__summary">
          {view.filters.length ? (
            <>
              <span>
                {view.match === 'or' ? 'Any of:' : view.filters.length > 1 ? 'All of:' : ''}
              </span>
              <FilterChips label={`Filters of ${title}`} filters={view.filters} />
            </>
          ) : (
            <span>All webpages</span>
          )}
          <span>· {describeOrder(view)}</span>
          <span>
            · created <RelativeTime value={view.createdAt} />
          </span>
        </div>
        {remove.error ? (
          <p className="form__error" role="alert">
            Could not delete: {remove.error.message}
          </p>
        ) : null}
      </div>
      <div className="view-item__actions">
        <Link className="button" to={paths.viewEdit(view.id)} aria-label={`Edit ${title}`}>
          Edit
        </Link>
        <ConfirmButton
          label="Delete"
          question={`Delete the view “${title}”? Its webpages stay in the library.`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(view.id)}
        />
      </div>
    </li>
  );
}

/** Every view, newest first, with a readable summary, and the way to create one. */
export function ViewsPage() {
  const { data: views, error, isPending, refetch } = useQuery(listViewsOptions());

  let body;
  if (isPending) body = <ListSkeleton rows={4} label="Loading views…" />;
  else if (!views) body = <ErrorState error={error} onRetry={() => void refetch()} />;
  else if (!views.length) {
    body = (
      <EmptyState title="No views yet.">
        <p>
          A view is a saved list of webpages: the filters you choose (host, liked, read, labels,
          highlights, date added, duplicates), in the order you choose, optionally only the first
          few. It stays up to date as you add and change webpages, and it appears in the sidebar.
        </p>
        <p>
          <Link to={paths.viewNew()}>Create a view</Link>, or filter the{' '}
          <Link to={paths.home()}>library</Link> and choose “Save as view”.
        </p>
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
        <Link className="button button--primary" to={paths.viewNew()}>
          New view
        </Link>
      </header>
      {body}
    </section>
  );
}
