import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { ListSkeleton } from '../../../components/skeleton.tsx';
import { WebpageFilterChips } from '../../../components/webpage-filter-fields.tsx';
import { downloadFileName } from '../../../lib/file-name.ts';
import { paths } from '../../../lib/paths.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { noWebpageFilters, type WebpageFilters } from '../../../lib/webpage-filters.ts';
import { highlightsListOptions, type HighlightsPage } from '../api/list-highlights.ts';
import type { HighlightsListItem } from '../gather.ts';
import {
  highlightHref,
  MAX_HIGHLIGHT_QUERY,
  parseHighlightsParams,
  toHighlightsParams,
  updateHighlightsParams,
  type HighlightsParams,
} from '../highlights-params.ts';
import { listMarkdown } from '../list-markdown.ts';

/** How long typing pauses before the search runs (ms). */
export const SEARCH_DEBOUNCE_MS = 300;
/** The export reads at most this many pages of the list (HIGHLIGHTS_PER_PAGE each). */
const EXPORT_MAX_PAGES = 200;

export interface HighlightsPageProps {
  /** Labels to offer in the label filter (the archive's, most used first). */
  labelOptions: readonly string[];
  /** Hosts to offer in the host filter. */
  hostOptions: readonly string[];
}

const href = (search: HighlightsParams) => paths.highlights(toHighlightsParams(search));

/**
 * Every highlight, newest first, with its note and a link to the spot in its page; a search over
 * text and notes and filters by the page's labels and host, all in the address; more as the list
 * is scrolled; the list as Markdown.
 */
export function HighlightsPage({ labelOptions, hostOptions }: HighlightsPageProps) {
  const id = useId();
  const [params] = useSearchParams();
  const search = parseHighlightsParams(params);
  const navigate = useNavigate();
  const query = useInfiniteQuery(highlightsListOptions(search));
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const [exporting, setExporting] = useState(false);

  const change = (update: Partial<HighlightsParams>) =>
    void navigate(href(updateHighlightsParams(search, update)), { replace: true });

  const pages = data?.pages ?? [];
  const items = pages.flatMap((page) => page.items);
  const gathered = pages[0]?.gathered;
  const filtered = search.q !== '' || search.labels.length > 0 || search.host.length > 0;

  // More as the end of the list comes into view.
  const endRef = useRef<HTMLDivElement>(null);
  const loadMore = useEffectEvent(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  });
  useEffect(() => {
    const end = endRef.current;
    if (!end || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    });
    observer.observe(end);
    return () => observer.disconnect();
  }, [hasNextPage, items.length]);

  const exportMarkdown = async () => {
    setExporting(true);
    try {
      let all: HighlightsPage[] = pages;
      let more = hasNextPage;
      while (more && all.length < EXPORT_MAX_PAGES) {
        const next = await fetchNextPage();
        if (next.isError || !next.data) throw next.error;
        all = next.data.pages;
        more = next.hasNextPage;
      }
      const heading = search.q ? `Highlights: ${search.q}` : 'Highlights';
      const markdown = listMarkdown(
        all.flatMap((page) => page.items),
        (webpageId) => new URL(paths.webpage(webpageId), window.location.origin).href,
        heading,
      );
      saveFile(
        new TextEncoder().encode(markdown),
        downloadFileName(heading, 'md'),
        'text/markdown',
      );
    } finally {
      setExporting(false);
    }
  };

  let status = '';
  if (query.isPending) status = 'Loading highlights…';
  else if (query.isSuccess && items.length > 0) {
    const count = `${items.length}${hasNextPage ? '+' : ''}`;
    status = `${count} ${items.length === 1 && !hasNextPage ? 'highlight' : 'highlights'}${
      filtered ? ' match' : ''
    }`;
  }

  const chipFilters: WebpageFilters = {
    ...noWebpageFilters,
    labels: search.labels,
    host: search.host,
  };

  return (
    <section className="page highlights-page" aria-labelledby={`${id}-title`}>
      <header className="page__header">
        <h1 id={`${id}-title`} className="page__title">
          Highlights
        </h1>
        <Button
          onClick={() => void exportMarkdown()}
          disabled={exporting || items.length === 0}
          aria-describedby={`${id}-export-hint`}
        >
          {exporting ? 'Exporting…' : 'Export Markdown'}
        </Button>
        <span id={`${id}-export-hint`} hidden>
          Downloads the highlights listed here as a Markdown file.
        </span>
      </header>

      <div className="toolbar" role="group" aria-label="Filters">
        <HighlightSearch id={id} value={search.q} onSearch={(q) => change({ q })} />
        <SelectField
          id={`${id}-label`}
          label="Label"
          value=""
          options={[
            ['', 'Any label'],
            ...labelOptions
              .filter((label) => !search.labels.includes(label))
              .map((label) => [label, label] as const),
          ]}
          onChange={(label) => label && change({ labels: [...search.labels, label] })}
        />
        <SelectField
          id={`${id}-host`}
          label="Host"
          value=""
          options={[
            ['', 'Any host'],
            ...hostOptions
              .filter((host) => !search.host.includes(host))
              .map((host) => [host, host] as const),
          ]}
          onChange={(host) => host && change({ host: [...search.host, host] })}
        />
        <WebpageFilterChips
          filters={chipFilters}
          onChange={(update) =>
            change({
              ...(update.labels ? { labels: update.labels } : {}),
              ...(update.host ? { host: update.host } : {}),
            })
          }
        />
      </div>

      {gathered ? (
        <p className="muted">
          Gathered from {gathered.pages} annotated {gathered.pages === 1 ? 'page' : 'pages'}; this
          server has no highlights list, so the search and filters run in this browser.
          {gathered.failed > 0
            ? ` ${gathered.failed} ${gathered.failed === 1 ? 'page' : 'pages'} could not be read.`
            : ''}
          {gathered.truncated ? ' Only the most recent annotated pages were read.' : ''}
        </p>
      ) : null}

      <p className="search-page__status muted" role="status">
        {status}
      </p>

      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <ListSkeleton label="Loading highlights…" />
      ) : items.length === 0 ? (
        filtered ? (
          <EmptyState title="No highlights match">
            <p>Try other words, or remove a filter.</p>
          </EmptyState>
        ) : (
          <EmptyState title="No highlights yet">
            <p>
              Open a page from the <Link to={paths.home()}>library</Link>, select text in its
              preview and choose Highlight (or press h). Every highlight shows here, newest first,
              with its note.
            </p>
          </EmptyState>
        )
      ) : (
        <>
          <ol className="search-results" aria-label="Highlights" aria-busy={query.isFetching}>
            {items.map((item) => (
              <HighlightEntry
                key={`${item.webpage.id}/${item.highlight.highlightId}`}
                item={item}
              />
            ))}
          </ol>
          <div ref={endRef} className="toolbar">
            {hasNextPage ? (
              <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
                {isFetchingNextPage ? 'Loading more…' : 'Load more'}
              </Button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

function HighlightEntry({ item }: { item: HighlightsListItem }) {
  const { highlight, webpage } = item;
  const note = highlight.note?.trim();
  const time = highlight.editTime ?? webpage.firstAddTime;
  return (
    <li className="search-result">
      <blockquote className="search-result__snippet">
        <mark className="search-mark">{highlight.text}</mark>
      </blockquote>
      {note ? <p className="search-result__snippet">{note}</p> : null}
      <p className="search-result__meta">
        <Link
          className="search-result__title"
          to={highlightHref(paths.webpage(webpage.id), highlight.highlightId)}
        >
          {webpage.title.trim() || 'Untitled'}
        </Link>
        {webpage.host ? <span>{webpage.host}</span> : null}
        <RelativeTime value={time} titlePrefix="Highlighted" />
      </p>
    </li>
  );
}

interface HighlightSearchProps {
  id: string;
  /** The search in the address. */
  value: string;
  onSearch: (q: string) => void;
}

/** The search field: runs the search when typing pauses, or at once on Enter. */
function HighlightSearch({ id, value, onSearch }: HighlightSearchProps) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  // The address changed (Back, a cleared search): show what it says, unless it is what was typed.
  if (value !== shown) {
    setShown(value);
    if (text.trim() !== value) setText(value);
  }
  const search = useEffectEvent((q: string) => onSearch(q));
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => search(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <label className="field" htmlFor={`${id}-q`}>
        <span className="field__label">Search highlights and notes</span>
        <input
          id={`${id}-q`}
          type="search"
          value={text}
          maxLength={MAX_HIGHLIGHT_QUERY}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
    </form>
  );
}
