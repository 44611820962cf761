import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router-dom';

import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { Pager } from '../../../components/pager.tsx';
import { ListSkeleton } from '../../../components/skeleton.tsx';
import { useCommandQueue } from '../../../components/use-command-queue.ts';
import { WebpageList, WebpageRow } from '../../../components/webpage-row.tsx';
import { paths } from '../../../lib/paths.ts';
import { listCount } from '../../../lib/list-count.ts';
import { toggleRange } from '../../../lib/selection.ts';
import { hasWebpageFilters } from '../../../lib/webpage-filters.ts';
import { listWebpagesOptions } from '../api/list-webpages.ts';
import { useWithoutHidden } from '../hidden-webpages.ts';
import {
  defaultListFilters,
  parseListSearch,
  toSearchParams,
  updateFilters,
  type ListFilters,
} from '../filters.ts';
import { webpageLocationState } from '../list-context.ts';
import type { ListAction } from './bulk-toolbar.tsx';
import { LIST_FILTERS_ID, WebpageListControls } from './webpage-list-controls.tsx';

// Not needed for the first paint: the keyboard loads right after it, the bulk actions on the
// first selection (or the first l / r / Delete).
const ListShortcuts = lazy(() =>
  import('./list-shortcuts.tsx').then((module) => ({ default: module.ListShortcuts })),
);
const BulkToolbar = lazy(() =>
  import('./bulk-toolbar.tsx').then((module) => ({ default: module.BulkToolbar })),
);

function listHref(filters: ListFilters): string {
  return paths.home(toSearchParams(filters));
}

/** What the user picked on one list (its search parameters): selection, range anchor, keyboard row. */
interface Picks {
  search: string;
  ids: ReadonlySet<string>;
  anchor: number | null;
  active: number;
}

const noPicks = (search: string): Picks => ({ search, ids: new Set(), anchor: null, active: -1 });

export interface WebpageListPageProps {
  /** More actions in the header, next to Upload (composed by the route, e.g. "Save as view"). */
  toolbarExtra?: ReactNode;
}

/** The library: every webpage, filtered, sorted and paged by the URL's search parameters. */
export function WebpageListPage({ toolbarExtra }: WebpageListPageProps = {}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseListSearch(searchParams), [searchParams]);
  const search = searchParams.toString();
  const { data, error, isPending, isError, isFetching, refetch } = useQuery({
    ...listWebpagesOptions(filters),
    select: useWithoutHidden(),
  });
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

  const [picksState, setPicks] = useState(() => noPicks(search));
  // Another list (filters, page): nothing picked.
  const picks = picksState.search === search ? picksState : noPicks(search);
  const updatePicks = (change: (current: Picks) => Partial<Picks>) =>
    setPicks((previous) => {
      const current = previous.search === search ? previous : noPicks(search);
      return { ...current, ...change(current) };
    });
  // The keyboard's presses, queued until the bulk actions take them.
  const { commands, push, onCommandsDone } = useCommandQueue<ListAction>();
  const [actionsLoaded, setActionsLoaded] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);

  const items = data?.items ?? [];
  const selected = items.filter((item) => picks.ids.has(item.id));
  if (!actionsLoaded && (selected.length > 0 || commands.length > 0)) setActionsLoaded(true);
  const linkState = webpageLocationState(filters);
  const count = data
    ? listCount({
        page: filters.page,
        perPage: filters.perPage,
        shown: data.items.length,
        hasNext: data.hasNext,
        ...(data.total === undefined ? {} : { total: data.total }),
      })
    : null;

  const toggle = (index: number, range: boolean) =>
    updatePicks(({ ids, anchor }) =>
      items[index]
        ? { ids: toggleRange(ids, items, index, anchor, range), anchor: index, active: index }
        : {},
    );

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
      ) : hasWebpageFilters(filters) ? (
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
    const all = selected.length === items.length;
    body = (
      <>
        {isError ? <ErrorState error={error} onRetry={() => void refetch()} /> : null}
        <div className="list-bar">
          <label className="list-bar__all">
            <input
              type="checkbox"
              checked={all}
              ref={(input) => {
                if (input) input.indeterminate = selected.length > 0 && !all;
              }}
              onChange={() =>
                updatePicks(() => ({
                  ids: new Set(all ? [] : items.map((item) => item.id)),
                  anchor: null,
                }))
              }
            />
            <span className={selected.length ? 'visually-hidden' : undefined}>
              Select all on this page
            </span>
          </label>
          {actionsLoaded ? (
            <Suspense fallback={selected.length ? <b>{selected.length} selected</b> : null}>
              <BulkToolbar
                items={items}
                selected={selected}
                commands={commands}
                onCommandsDone={onCommandsDone}
                onSelectionChange={(ids) => updatePicks(() => ({ ids: new Set(ids) }))}
              />
            </Suspense>
          ) : null}
        </div>
        <WebpageList ref={listRef} label="Webpages" busy={busy} selectable>
          {items.map((item, index) => (
            <WebpageRow
              key={item.id}
              item={item}
              href={paths.webpage(item.id)}
              linkState={linkState}
              labelHref={labelHref}
              hostHref={hostHref}
              active={index === picks.active}
              onFocus={() => {
                if (picks.active !== index) updatePicks(() => ({ active: index }));
              }}
              selection={{
                selected: picks.ids.has(item.id),
                onChange: (range) => toggle(index, range),
              }}
            />
          ))}
        </WebpageList>
        <Pager
          page={filters.page}
          hasNext={data.hasNext}
          href={(page) => listHref({ ...filters, page })}
        />
      </>
    );
  }

  return (
    <section className="page" aria-labelledby="library-title">
      <header className="page__header">
        <h1 id="library-title" className="page__title">
          Library
        </h1>
        {count === null ? null : (
          <p className="page__count" role="status">
            {count}
          </p>
        )}
        <span className="page__actions">
          {toolbarExtra}
          <Link className="button button--primary" to={paths.upload()}>
            Upload
          </Link>
        </span>
      </header>
      <WebpageListControls
        filters={shownFilters}
        onChange={(next) => setSearchParams(toSearchParams(next))}
      />
      {body}
      <Suspense fallback={null}>
        <ListShortcuts
          items={items}
          selected={selected}
          active={picks.active}
          filters={filters}
          list={listRef}
          onActive={(active) => updatePicks(() => ({ active }))}
          onToggle={(index) => toggle(index, false)}
          onAction={push}
          filtersId={LIST_FILTERS_ID}
        />
      </Suspense>
    </section>
  );
}
