// The webpage list's filters, sort and paging live in the URL. One parser and one serializer, used by
// the route loader and by the UI, so both always agree on what the URL means. The filters and the
// page are read and written as search reads and writes them (lib/webpage-filters.ts).
import type { components, operations } from '../../../shared/contract/schema.gen.ts';
import {
  appendPage,
  appendWebpageFilters,
  noWebpageFilters,
  oneOf,
  parsePage,
  parseWebpageFilters,
  toWebpageFilterQuery,
  type WebpageFilters,
} from '../../lib/webpage-filters.ts';

export type WebpageExt = components['schemas']['WebpageExt'];
export type WebpageSort = components['schemas']['WebpagesListSort'];
export type ListQuery = NonNullable<operations['listWebpages']['parameters']['query']>;

export const WEBPAGE_SORTS: readonly WebpageSort[] = [
  'first_add_time_desc',
  'first_add_time_asc',
  'title_asc',
  'title_desc',
  'annotate_count_asc',
  'annotate_count_desc',
];
export const SORT_LABELS: Record<WebpageSort, string> = {
  first_add_time_desc: 'Newest first',
  first_add_time_asc: 'Oldest first',
  title_asc: 'Title A→Z',
  title_desc: 'Title Z→A',
  annotate_count_desc: 'Most highlights',
  annotate_count_asc: 'Fewest highlights',
};

export const PER_PAGE_OPTIONS = [30, 60, 100] as const;
export type PerPage = (typeof PER_PAGE_OPTIONS)[number];

export interface ListFilters extends WebpageFilters {
  sort: WebpageSort;
  /** 1-based. */
  page: number;
  perPage: PerPage;
}

export const defaultListFilters: ListFilters = {
  ...noWebpageFilters,
  sort: 'first_add_time_desc',
  page: 1,
  perPage: 30,
};

/** URL parameter names besides the shared filters and page. */
const PARAM = { sort: 'sort', perPage: 'per_page' } as const;

/**
 * Reads the filters from the URL. Unknown or invalid values fall back to the defaults, so any URL
 * gives a valid, canonical ListFilters (equal URLs meaning give equal objects, hence equal query keys).
 */
export function parseListSearch(params: URLSearchParams): ListFilters {
  return {
    ...parseWebpageFilters(params),
    sort: oneOf(WEBPAGE_SORTS, params.get(PARAM.sort), defaultListFilters.sort),
    page: parsePage(params),
    perPage: oneOf(PER_PAGE_OPTIONS, Number(params.get(PARAM.perPage)), defaultListFilters.perPage),
  };
}

/** The URL parameters of the filters; defaults are left out, so the plain list is `/`. */
export function toSearchParams(filters: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  appendWebpageFilters(params, filters);
  if (filters.sort !== defaultListFilters.sort) params.set(PARAM.sort, filters.sort);
  appendPage(params, filters.page);
  if (filters.perPage !== defaultListFilters.perPage) {
    params.set(PARAM.perPage, String(filters.perPage));
  }
  return params;
}

/** The canonical form of filters (sorted lists, valid values), as the URL would give them back. */
export function normalizeFilters(filters: ListFilters): ListFilters {
  return parseListSearch(toSearchParams(filters));
}

/** A change of filters; anything but the page itself sends the user back to page 1. */
export function updateFilters(filters: ListFilters, change: Partial<ListFilters>): ListFilters {
  return normalizeFilters({ ...filters, page: 1, ...change });
}

/** The list API's query parameters, without paging (see `listWebpagesOptions`). */
export function toListQuery(filters: ListFilters): ListQuery {
  return { sort: filters.sort, ...toWebpageFilterQuery(filters) };
}
