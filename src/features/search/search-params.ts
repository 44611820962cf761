// The search page's address: `/search?q=…` plus the list's filter parameters (same names as the
// webpages feature's filters: liked, read, annotated, host, label, ext) and `page`. Features do not
// import each other, so this repeats the few lines of the list's parsing that search needs (search
// has no sort and a fixed page size).
import type { components, operations } from '../../api/schema.gen.ts';

export type TriState = 'any' | 'yes' | 'no';
export type WebpageExt = components['schemas']['WebpageExt'];
export type SearchQuery = operations['searchWebpages']['parameters']['query'];

export const TRI_STATES: readonly TriState[] = ['any', 'yes', 'no'];
export const WEBPAGE_EXTS: readonly WebpageExt[] = ['html', 'mhtml', 'webarchive'];
/** Results per page. */
export const SEARCH_PER_PAGE = 20;
/** The server refuses longer queries. */
export const MAX_QUERY_LENGTH = 500;

export interface SearchParams {
  /** The words to search for, trimmed; '' for none. */
  q: string;
  liked: TriState;
  read: TriState;
  annotated: TriState;
  /** Sorted, without duplicates. */
  host: string[];
  /** Sorted, without duplicates. */
  labels: string[];
  /** In `WEBPAGE_EXTS` order. */
  ext: WebpageExt[];
  /** 1-based. */
  page: number;
}

const PARAM = {
  q: 'q',
  liked: 'liked',
  read: 'read',
  annotated: 'annotated',
  host: 'host',
  labels: 'label',
  ext: 'ext',
  page: 'page',
} as const;

const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 300;

function triState(value: string | null): TriState {
  return TRI_STATES.includes(value as TriState) ? (value as TriState) : 'any';
}

function cleanList(values: readonly string[]): string[] {
  const kept = values.map((v) => v.trim()).filter((v) => v && v.length <= MAX_VALUE_LENGTH);
  return [...new Set(kept)].sort().slice(0, MAX_VALUES);
}

/** Reads the address; anything invalid falls back to its default. */
export function parseSearchParams(params: URLSearchParams): SearchParams {
  const page = Number(params.get(PARAM.page));
  const exts = new Set(params.getAll(PARAM.ext));
  return {
    q: (params.get(PARAM.q) ?? '').trim().slice(0, MAX_QUERY_LENGTH),
    liked: triState(params.get(PARAM.liked)),
    read: triState(params.get(PARAM.read)),
    annotated: triState(params.get(PARAM.annotated)),
    host: cleanList(params.getAll(PARAM.host)),
    labels: cleanList(params.getAll(PARAM.labels)),
    ext: WEBPAGE_EXTS.filter((ext) => exts.has(ext)),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The address's parameters (`q` first); defaults are left out. */
export function toSearchParams(search: SearchParams): URLSearchParams {
  const params = new URLSearchParams();
  if (search.q) params.set(PARAM.q, search.q);
  for (const key of ['liked', 'read', 'annotated'] as const) {
    if (search[key] !== 'any') params.set(PARAM[key], search[key]);
  }
  for (const host of search.host) params.append(PARAM.host, host);
  for (const label of search.labels) params.append(PARAM.labels, label);
  for (const ext of search.ext) params.append(PARAM.ext, ext);
  if (search.page !== 1) params.set(PARAM.page, String(search.page));
  return params;
}

/** A change of the search; anything but the page itself goes back to page 1. */
export function updateSearch(search: SearchParams, change: Partial<SearchParams>): SearchParams {
  return parseSearchParams(toSearchParams({ ...search, page: 1, ...change }));
}

/** Whether any filter narrows the results. */
export function hasFilters(search: SearchParams): boolean {
  return (
    search.liked !== 'any' ||
    search.read !== 'any' ||
    search.annotated !== 'any' ||
    search.host.length > 0 ||
    search.labels.length > 0 ||
    search.ext.length > 0
  );
}

function triStateQuery(value: TriState): 'true' | 'false' | undefined {
  return value === 'any' ? undefined : value === 'yes' ? 'true' : 'false';
}

/** The search API's query parameters, without paging. */
export function toSearchQuery(search: SearchParams): SearchQuery {
  const query: SearchQuery = { q: search.q };
  const liked = triStateQuery(search.liked);
  const read = triStateQuery(search.read);
  const annotated = triStateQuery(search.annotated);
  if (liked) query.liked = liked;
  if (read) query.read = read;
  if (annotated) query.annotated = annotated;
  if (search.host.length) query.host = search.host;
  if (search.labels.length) query.labels = search.labels;
  if (search.ext.length) query.ext = search.ext;
  return query;
}
