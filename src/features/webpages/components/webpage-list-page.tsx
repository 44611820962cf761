import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router-dom';

import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ListSkeleton } from '../../../components/skeleton.tsx';
import { WebpageList, WebpageRow } from '../../../components/webpage-row.tsx';
import { paths } from '../../../lib/paths.ts';
import { listWebpagesOptions } from '../api/list-webpages.ts';
import {
  defaultListFilters,
  hasActiveFilters,
  parseListSearch,
  toSearchParams,
  updateFilters,
  type ListFilters,
} from '../filters.ts';
import { WebpageListControls } from './webpage-list-controls.tsx';

function listHref(filters: ListFilters): string {
  return paths.home(toSearchParams(filters));
}

/** The library: every webpage, filtered, sorted and paged by the URL's search parameters. */
export function WebpageListPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseListSearch(searchParams), [searchParams]);
  const { data, error, isPending, isError, isFetching, refetch } = useQuery(
    listWebpagesOptions(filters),
  );
  const navigation = useNavigation();
  const { pathname } = useLocation();
  // While the next list loads, the controls already show what the user chose.
  const nextSearch =
    navigation.location?.pathname === pathname ? navigation.location.search : undefined;
  const shownFilters = useMemo(
    () => (nextSearch === undefined ? filters : parseListSearch(new URLSearchParams(nextSearch))),
    [filters, nextSearch],
  );
  const busy = navigation.state === 'loading' || (isFetching && !isPending);

  const labelHref = (label: string) =>
    listHref(updateFilters(filters, { labels: [...filters.labels, label] }));
  const hostHref = (host: string) =>
    listHref(updateFilters(filters, { host: [...filters.host, host] }));

  let body: ReactNode;
  if (isPending) {
    body = <ListSkeleton rows={Math.min(filters.perPage, 15)} label="Loading webpages…" />;
  } else if (isError && !data) {
    body = <ErrorState error={error} onRetry={() => void refetch()} />;
  } else if (data.items.length === 0) {
    body =
      filters.page > 1 ? (
        <EmptyState title="No webpages on this page.">
          <Link to={listHref({ ...filters, page: 1 })}>Go to the first page</Link>
        </EmptyState>
      ) : hasActiveFilters(filters) ? (
        <EmptyState title="No webpages match these filters.">
          <Link
            to={listHref({ ...defaultListFilters, sort: filters.sort, perPage: filters.perPage })}
          >
            Clear filters
          </Link>
        </EmptyState>
      ) : (
        <EmptyState title="Your archive is empty.">
          <Link to={paths.upload()}>Upload saved webpages</Link> (HTML, MHTML or Safari webarchive).
        </EmptyState>
      );
  } else {
    body = (
      <>
        {isError ? <ErrorState error={error} onRetry={() => void refetch()} /> : null}
        <WebpageList label="Webpages" busy={busy}>
          {data.items.map((item) => (
            <WebpageRow
              key={item.id}
              item={item}
              href={paths.webpage(item.id)}
              labelHref={labelHref}
              hostHref={hostHref}
            />
          ))}
        </WebpageList>
        <nav className="pager" aria-label="Pages">
          {filters.page > 1 ? (
            <Link to={listHref({ ...filters, page: filters.page - 1 })} rel="prev">
              ← Previous
            </Link>
          ) : (
            <span className="pager__disabled" aria-disabled="true">
              ← Previous
            </span>
          )}
          <span className="pager__current">Page {filters.page}</span>
          {data.hasNext ? (
            <Link to={listHref({ ...filters, page: filters.page + 1 })} rel="next">
              Next →
            </Link>
          ) : (
            <span className="pager__disabled" aria-disabled="true">
              Next →
            </span>
          )}
        </nav>
      </>
    );
  }

  return (
    <section className="page" aria-labelledby="library-title">
      <header className="page__header">
        <h1 id="library-title" className="page__title">
          Library
        </h1>
        <Link className="button button--primary" to={paths.upload()}>
          Upload
        </Link>
      </header>
      <WebpageListControls
        filters={shownFilters}
        onChange={(next) => setSearchParams(toSearchParams(next))}
      />
      {body}
    </section>
  );
}
