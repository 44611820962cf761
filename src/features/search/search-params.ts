// The search page's address: `/search?q=…` plus the library's filter parameters (liked, read,
// annotated, host, label, ext) and `page`, read and written as the library does
// (lib/webpage-filters.ts). Search has no sort and a fixed page size.
import type { operations } from '../../../shared/contract/schema.gen.ts';
import {
  appendPage,
  appendWebpageFilters,
  parsePage,
  parseWebpageFilters,
  toWebpageFilterQuery,
  type WebpageFilters,
} from '../../lib/webpage-filters.ts';

export type SearchQuery = operations['searchWebpages']['parameters']['query'];

/** Results per page. */
export const SEARCH_PER_PAGE = 20;
/** The server refuses longer queries. */
export const MAX_QUERY_LENGTH = 500;

export interface SearchParams extends WebpageFilters {
  /** The words to search for, trimmed; '' for none. */
  q: string;
  /** 1-based. */
  page: number;
}

const Q = 'q';

/** Reads the address; anything invalid falls back to its default. */
export function parseSearchParams(params: URLSearchParams): SearchParams {
  return {
    q: (params.get(Q) ?? '').trim().slice(0, MAX_QUERY_LENGTH),
    ...parseWebpageFilters(params),
    page: parsePage(params),
  };
}

/** The address's parameters (`q` first); defaults are left out. */
export function toSearchParams(search: SearchParams): URLSearchParams {
  const params = new URLSearchParams();
  if (search.q) params.set(Q, search.q);
  appendWebpageFilters(params, search);
  appendPage(params, search.page);
  return params;
}

/** A change of the search; anything but the page itself goes back to page 1. */
export function updateSearch(search: SearchParams, change: Partial<SearchParams>): SearchParams {
  return parseSearchParams(toSearchParams({ ...search, page: 1, ...change }));
}

/** The search API's query parameters, without paging. */
export function toSearchQuery(search: SearchParams): SearchQuery {
  return { q: search.q, ...toWebpageFilterQuery(search) };
}
