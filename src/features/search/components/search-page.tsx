import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';

import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { paths } from '../../../lib/paths.ts';
import { lacksSearch, searchWebpagesOptions } from '../api/search-webpages.ts';
import {
  hasFilters,
  parseSearchParams,
  toSearchParams,
  TRI_STATES,
  updateSearch,
  WEBPAGE_EXTS,
  type SearchParams,
  type TriState,
  type WebpageExt,
} from '../search-params.ts';
import type { SearchLocationState } from './search-box-behaviour.tsx';
import { SearchResult } from './search-result.tsx';

const TRI_LABELS: Record<'liked' | 'read' | 'annotated', Record<TriState, string>> = {
  liked: { any: 'Any', yes: 'Liked', no: 'Not liked' },
  read: { any: 'Any', yes: 'Read', no: 'Unread' },
  annotated: { any: 'Any', yes: 'With highlights', no: 'Without highlights' },
};
const FIELD_LABELS = { liked: 'Liked', read: 'Read', annotated: 'Highlights' } as const;

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
        {(['liked', 'read', 'annotated'] as const).map((key) => (
          <label key={key} className="field">
            <span className="field__label">{FIELD_LABELS[key]}</span>
            <select
              value={search[key]}
              onChange={(event) => change({ [key]: event.target.value as TriState })}
            >
              {TRI_STATES.map((state) => (
                <option key={state} value={state}>
                  {TRI_LABELS[key][state]}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label className="field">
          <span className="field__label">Format</span>
          <select
            value={search.ext.length === 1 ? search.ext[0] : ''}
            onChange={(event) =>
              change({ ext: event.target.value ? [event.target.value as WebpageExt] : [] })
            }
          >
            <option value="">{search.ext.length > 1 ? search.ext.join(', ') : 'Any'}</option>
            {WEBPAGE_EXTS.map((ext) => (
              <option key={ext} value={ext}>
                {ext}
              </option>
            ))}
          </select>
        </label>
        {search.host.map((host) => (
          <span key={`host:${host}`} className="chip">
            {host}
            <button
              type="button"
              className="chip__remove"
              aria-label={`Remove filter host ${host}`}
              onClick={() => change({ host: search.host.filter((value) => value !== host) })}
            >
              ×
            </button>
          </span>
        ))}
        {search.labels.map((label) => (
          <span key={`label:${label}`} className="chip">
            {label}
            <button
              type="button"
              className="chip__remove"
              aria-label={`Remove filter label ${label}`}
              onClick={() => change({ labels: search.labels.filter((value) => value !== label) })}
            >
              ×
            </button>
          </span>
        ))}
        {hasFilters(search) ? (
          <Button
            variant="ghost"
            onClick={() =>
              change({ liked: 'any', read: 'any', annotated: 'any', host: [], labels: [], ext: [] })
            }
          >
            Clear filters
          </Button>
        ) : null}
      </div>

      <p className="search-page__status muted" role="status">
        {status}
      </p>

      {query.isError ? (
        lacksSearch(query.error) ? (
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
            <nav className="pager" aria-label="Pages">
              {search.page > 1 ? (
                <Link to={href({ ...search, page: search.page - 1 })} rel="prev">
                  ← Previous
                </Link>
              ) : (
                <span className="pager__disabled" aria-disabled="true">
                  ← Previous
                </span>
              )}
              <span className="pager__current">Page {search.page}</span>
              {data.hasNext ? (
                <Link to={href({ ...search, page: search.page + 1 })} rel="next">
                  Next →
                </Link>
              ) : (
                <span className="pager__disabled" aria-disabled="true">
                  Next →
                </span>
              )}
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
