import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';

import { lacksOperation } from '../../../api/server-capabilities.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { Pager } from '../../../components/pager.tsx';
import {
  WebpageFilterChips,
  WebpageFilterSelects,
} from '../../../components/webpage-filter-fields.tsx';
import { paths } from '../../../lib/paths.ts';
import { searchWebpagesOptions } from '../api/search-webpages.ts';
import {
  parseSearchParams,
  toSearchParams,
  updateSearch,
  type SearchParams,
} from '../search-params.ts';
import type { SearchLocationState } from './search-box-behaviour.tsx';
import { SearchResult } from './search-result.tsx';

const href = (search: SearchParams) => paths.search(toSearchParams(search));

/** Results of `/search?q=…` with the list's filters; says so when the server has no search. */
export function SearchPage() {
  const id = useId();
  const [params] = useSearchParams();
  const search = parseSearchParams(params);
  const navigate = useNavigate();
  const location = useLocation();
  const query = useQuery({ ...searchWebpagesOptions(search), placeholderData: keepPreviousData });
  const listRef = useRef<HTMLOListElement>(null);
  const focusedFor = useRef<string | null>(null);

  // Enter in the search field: move to the first result once it is there.
  const wantsFocus = (location.state as SearchLocationState | null)?.focusResults === true;
  const ready = query.isSuccess && !query.isPlaceholderData;
  useEffect(() => {
    if (!wantsFocus || !ready || focusedFor.current === location.key) return;
    focusedFor.current = location.key;
    listRef.current?.querySelector<HTMLElement>('.search-result__title a')?.focus();
  }, [wantsFocus, ready, location.key]);

  const change = (update: Partial<SearchParams>) =>
    void navigate(href(updateSearch(search, update)), { replace: true });

  const data = query.data;
  let status: string;
  if (!search.q) status = 'Type in the search field to search every page’s title and text.';
  else if (query.isError) status = '';
  else if (!data || (query.isFetching && query.isPlaceholderData)) status = 'Searching…';
  else if (data.items.length === 0) status = `No webpages match “${search.q}”.`;
  else {
    const count = data.items.length + (data.hasNext ? '+' : '');
    status = `${count} ${data.items.length === 1 && !data.hasNext ? 'result' : 'results'}${
      search.page > 1 ? ` on page ${search.page}` : ''
    } for “${search.q}”`;
  }

  return (
    <section className="page search-page" aria-labelledby={`${id}-title`}>
      <header className="page__header">
        <h1 id={`${id}-title`} className="page__title">
          {search.q ? `Search: ${search.q}` : 'Search'}
        </h1>
      </header>
      <div className="toolbar search-page__filters" role="group" aria-label="Filters">
        <WebpageFilterSelects id={id} filters={search} onChange={change} />
        <WebpageFilterChips filters={search} onChange={change} />
      </div>

      <p className="search-page__status muted" role="status">
        {status}
      </p>

      {query.isError ? (
        lacksOperation(query.error) ? (
          <EmptyState title="This server has no full-text search">
            <p>
              The archive at this address does not offer search. The{' '}
              <Link to={paths.home()}>library</Link>&apos;s filters still work.
            </p>
          </EmptyState>
        ) : (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        )
      ) : data && data.items.length > 0 && search.q ? (
        <>
          <ol
            ref={listRef}
            className="search-results"
            aria-label="Search results"
            aria-busy={query.isFetching}
          >
            {data.items.map((result) => (
              <SearchResult
                key={result.id}
                result={result}
                href={paths.webpage(result.id)}
                labelHref={(label) =>
                  href(updateSearch(search, { labels: [...search.labels, label] }))
                }
                hostHref={(host) => href(updateSearch(search, { host: [...search.host, host] }))}
              />
            ))}
          </ol>
          {search.page > 1 || data.hasNext ? (
            <Pager
              page={search.page}
              hasNext={data.hasNext}
              href={(page) => href({ ...search, page })}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
