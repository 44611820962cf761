import { useQuery } from '@tanstack/react-query';

import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ListSkeleton, PageLoading } from '../../../components/skeleton.tsx';
import { WebpageList, WebpageRow } from '../../../components/webpage-row.tsx';
import { paths } from '../../../lib/paths.ts';
import { viewOptions } from '../api/get-view.ts';
import { viewWebpagesOptions } from '../api/list-view-webpages.ts';
import { describeFilters, describeOrder } from '../view-summary.ts';

export interface ViewPageProps {
  viewId: string;
}

/** A view: its description and filters, then its webpages in the view's order. */
export function ViewPage({ viewId }: ViewPageProps) {
  const view = useQuery(viewOptions(viewId));
  const webpages = useQuery(viewWebpagesOptions(viewId));

  if (view.isPending) return <PageLoading />;
  if (!view.data) return <ErrorState error={view.error} onRetry={() => void view.refetch()} />;

  let body;
  if (webpages.isPending) body = <ListSkeleton label="Loading webpages…" />;
  else if (!webpages.data) {
    body = <ErrorState error={webpages.error} onRetry={() => void webpages.refetch()} />;
  } else if (!webpages.data.length) {
    body = <EmptyState title="No webpages in this view." />;
  } else {
    body = (
      <WebpageList label={`Webpages of ${view.data.title}`} busy={webpages.isFetching}>
        {webpages.data.map((item) => (
          <WebpageRow key={item.id} item={item} href={paths.webpage(item.id)} />
        ))}
      </WebpageList>
    );
  }

  return (
    <section className="page" aria-labelledby="view-title">
      <header className="page__header page__header--stacked">
        <h1 id="view-title" className="page__title">
          {view.data.title || 'Untitled view'}
        </h1>
        {view.data.description ? <p className="muted">{view.data.description}</p> : null}
        <p className="view-item__summary">
          {describeFilters(view.data)} · {describeOrder(view.data)}
          {webpages.data ? ` · ${webpages.data.length} webpages` : ''}
        </p>
      </header>
      {body}
    </section>
  );
}
