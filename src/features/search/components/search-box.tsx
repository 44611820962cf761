import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router-dom';

import { paths, routePatterns } from '../../../lib/paths.ts';
import '../search.css';

// What makes the field search as you type, and its shortcuts, load after the first paint. Until
// then the field is a plain form that opens `/search?q=…`.
const SearchBoxBehaviour = lazy(() =>
  import('./search-box-behaviour.tsx').then((module) => ({
    default: module.SearchBoxBehaviour,
  })),
);

/** The id of the search field (the shortcuts focus it). */
export const SEARCH_INPUT_ID = 'search-input';
const SEARCH_HINT_ID = 'search-hint';

/** The search field of the sidebar (see `SearchBoxBehaviour` for what it does). */
export function SearchBox() {
  const location = useLocation();
  const initial =
    location.pathname === routePatterns.search
      ? (new URLSearchParams(location.search).get('q') ?? '')
      : '';
  return (
    <form className="search-box" role="search" action={paths.search()}>
      <label htmlFor={SEARCH_INPUT_ID} className="visually-hidden">
        Search webpages
      </label>
      <input
        id={SEARCH_INPUT_ID}
        className="search-box__input"
        type="search"
        name="q"
        placeholder="Search (Ctrl+K)"
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        maxLength={500}
        aria-keyshortcuts="Control+K Meta+K"
        aria-describedby={SEARCH_HINT_ID}
        defaultValue={initial}
      />
      <p id={SEARCH_HINT_ID} className="search-box__hint">
        <code>"two words"</code> finds a phrase, <code>-word</code> leaves pages out; accents are
        optional.
      </p>
      <Suspense fallback={null}>
        <SearchBoxBehaviour inputId={SEARCH_INPUT_ID} />
      </Suspense>
    </form>
  );
}
