// The webpage list's filters, sort and paging live in the URL. One parser and one serializer, used by
// the route loader and by the UI, so both always agree on what the URL means.
import type { components, operations } from '../../api/schema.gen.ts';

export type TriState = 'any' | 'yes' | 'no';
export type WebpageExt = components['schemas']['WebpageExt'];
export type WebpageSort = components['schemas']['WebpagesListSort'];
export type ListQuery = NonNullable<operations['listWebpages']['parameters']['query']>;

export const TRI_STATES: readonly TriState[] = ['any', 'yes', 'no'];
export const WEBPAGE_EXTS: readonly WebpageExt[] = ['html', 'mhtml', 'webarchive'];
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

export interface ListFilters {
  liked: TriState;
  read: TriState;
  annotated: TriState;
  /** Exact hosts (with port); any of them. Sorted, without duplicates. */
  host: string[];
  /** Labels the page must all have. Sorted, without duplicates. */
  labels: string[];
  /** File kinds; any of them. In `WEBPAGE_EXTS` order, without duplicates. */
  ext: WebpageExt[];
  sort: WebpageSort;
  /** 1-based. */
  page: number;
  perPage: PerPage;
}

export const defaultListFilters: ListFilters = {
  liked: 'any',
  read: 'any',
  annotated: 'any',
  host: [],
  labels: [],
  ext: [],
  sort: 'first_add_time_desc',
  page: 1,
  perPage: 30,
};

/** URL parameter names. */
const PARAM = {
  liked: 'liked',
  read: 'read',
  annotated: 'annotated',
  host: 'host',
  labels: 'label',
  ext: 'ext',
  sort: 'sort',
  page: 'page',
  perPage: 'per_page',
} as const;

const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 300;

function oneOf<T extends string | number>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function cleanList(values: readonly string[]): string[] {
  const kept = values.map((v) => v.trim()).filter((v) => v && v.length <= MAX_VALUE_LENGTH);
  return [...new Set(kept)].sort().slice(0, MAX_VALUES);
}

/**
 * Reads the filters from the URL. Unknown or invalid values fall back to the defaults, so any URL
 * gives a valid, canonical ListFilters (equal URLs meaning give equal objects, hence equal query keys).
 */
export function parseListSearch(params: URLSearchParams): ListFilters {
  const page = Number(params.get(PARAM.page));
  const perPage = Number(params.get(PARAM.perPage));
  const exts = new Set(params.getAll(PARAM.ext));
  return {
    liked: oneOf(TRI_STATES, params.get(PARAM.liked), 'any'),
    read: oneOf(TRI_STATES, params.get(PARAM.read), 'any'),
    annotated: oneOf(TRI_STATES, params.get(PARAM.annotated), 'any'),
    host: cleanList(params.getAll(PARAM.host)),
    labels: cleanList(params.getAll(PARAM.labels)),
    ext: WEBPAGE_EXTS.filter((ext) => exts.has(ext)),
    sort: oneOf(WEBPAGE_SORTS, params.get(PARAM.sort), defaultListFilters.sort),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    perPage: oneOf(PER_PAGE_OPTIONS, perPage, defaultListFilters.perPage),
  };
}

/** The URL parameters of the filters; defaults are left out, so the plain list is `/`. */
export function toSearchParams(filters: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['liked', 'read', 'annotated'] as const) {
    if (filters[key] !== 'any') params.set(PARAM[key], filters[key]);
  }
  for (const host of filters.host) params.append(PARAM.host, host);
  for (const label of filters.labels) params.append(PARAM.labels, label);
  for (const ext of filters.ext) params.append(PARAM.ext, ext);
  if (filters.sort !== defaultListFilters.sort) params.set(PARAM.sort, filters.sort);
  if (filters.page !== 1) params.set(PARAM.page, String(filters.page));
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

/** Whether any filter (not sort or paging) narrows the list. */
export function hasActiveFilters(filters: ListFilters): boolean {
  return (
    filters.liked !== 'any' ||
    filters.read !== 'any' ||
    filters.annotated !== 'any' ||
    filters.host.length > 0 ||
    filters.labels.length > 0 ||
    filters.ext.length > 0
  );
}

function triStateQuery(value: TriState): 'true' | 'false' | undefined {
  return value === 'any' ? undefined : value === 'yes' ? 'true' : 'false';
}

/** The list API's query parameters, without paging (see `listWebpagesOptions`). */
export function toListQuery(filters: ListFilters): ListQuery {
  const query: ListQuery = { sort: filters.sort };
  const liked = triStateQuery(filters.liked);
  const read = triStateQuery(filters.read);
  const annotated = triStateQuery(filters.annotated);
  if (liked) query.liked = liked;
  if (read) query.read = read;
  if (annotated) query.annotated = annotated;
  if (filters.host.length) query.host = filters.host;
  if (filters.labels.length) query.labels = filters.labels;
  if (filters.ext.length) query.ext = filters.ext;
  return query;
}
