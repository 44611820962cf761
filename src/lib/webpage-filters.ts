// The webpage filters that the library and search share, and how they read and write the URL:
// `liked`, `read`, `annotated` (yes / no), `host`, `label`, `ext` (repeatable) and `page`. One
// parser and one serializer, so the same parameters mean the same on every screen. Each screen
// adds its own parameters (the library: sort and page size; search: the words).

export type TriState = 'any' | 'yes' | 'no';
/** The file kinds of the contract's `WebpageExt` (lib does not import the API's types). */
export type WebpageExt = 'html' | 'mhtml' | 'webarchive';

export const TRI_STATES: readonly TriState[] = ['any', 'yes', 'no'];
export const WEBPAGE_EXTS: readonly WebpageExt[] = ['html', 'mhtml', 'webarchive'];

export interface WebpageFilters {
  liked: TriState;
  read: TriState;
  annotated: TriState;
  /** Exact hosts (with port); any of them. Sorted, without duplicates. */
  host: string[];
  /** Labels the page must all have. Sorted, without duplicates. */
  labels: string[];
  /** File kinds; any of them. In `WEBPAGE_EXTS` order, without duplicates. */
  ext: WebpageExt[];
}

/** No filter: every webpage. */
export const noWebpageFilters: WebpageFilters = {
  liked: 'any',
  read: 'any',
  annotated: 'any',
  host: [],
  labels: [],
  ext: [],
};

/** The filters' query parameters of the list and search operations. */
export interface WebpageFilterQuery {
  liked?: 'true' | 'false';
  read?: 'true' | 'false';
  annotated?: 'true' | 'false';
  host?: string[];
  labels?: string[];
  ext?: WebpageExt[];
}

/** The yes / no filters; each key is also its URL parameter's name. */
const TRI_STATE_KEYS = ['liked', 'read', 'annotated'] as const;
const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 300;

/** `value` when it is one of `allowed`, else `fallback`. */
export function oneOf<T extends string | number>(
  allowed: readonly T[],
  value: unknown,
  fallback: T,
): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function cleanList(values: readonly string[]): string[] {
  const kept = values.map((v) => v.trim()).filter((v) => v && v.length <= MAX_VALUE_LENGTH);
  return [...new Set(kept)].sort().slice(0, MAX_VALUES);
}

/**
 * Reads the filters from the URL. Unknown or invalid values fall back to "no filter", so any URL
 * gives valid, canonical filters (URLs of equal meaning give equal objects, hence equal query keys).
 */
export function parseWebpageFilters(params: URLSearchParams): WebpageFilters {
  const exts = new Set(params.getAll('ext'));
  return {
    liked: oneOf(TRI_STATES, params.get('liked'), 'any'),
    read: oneOf(TRI_STATES, params.get('read'), 'any'),
    annotated: oneOf(TRI_STATES, params.get('annotated'), 'any'),
    host: cleanList(params.getAll('host')),
    labels: cleanList(params.getAll('label')),
    ext: WEBPAGE_EXTS.filter((ext) => exts.has(ext)),
  };
}

/** Appends the filters' parameters to `params`, leaving out the ones that do not filter. */
export function appendWebpageFilters(params: URLSearchParams, filters: WebpageFilters): void {
  for (const key of TRI_STATE_KEYS) {
    if (filters[key] !== 'any') params.set(key, filters[key]);
  }
  for (const host of filters.host) params.append('host', host);
  for (const label of filters.labels) params.append('label', label);
  for (const ext of filters.ext) params.append('ext', ext);
}

/** The 1-based page of the URL; 1 when missing or invalid. */
export function parsePage(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** Sets the page parameter, left out for the first page. */
export function appendPage(params: URLSearchParams, page: number): void {
  if (page !== 1) params.set('page', String(page));
}

/** Whether any filter narrows the webpages. */
export function hasWebpageFilters(filters: WebpageFilters): boolean {
  return (
    TRI_STATE_KEYS.some((key) => filters[key] !== 'any') ||
    filters.host.length > 0 ||
    filters.labels.length > 0 ||
    filters.ext.length > 0
  );
}

function triStateQuery(value: TriState): 'true' | 'false' | undefined {
  return value === 'any' ? undefined : value === 'yes' ? 'true' : 'false';
}

/** The API's query parameters for the filters (the list and search operations share them). */
export function toWebpageFilterQuery(filters: WebpageFilters): WebpageFilterQuery {
  const query: WebpageFilterQuery = {};
  for (const key of TRI_STATE_KEYS) {
    const value = triStateQuery(filters[key]);
    if (value) query[key] = value;
  }
  if (filters.host.length) query.host = filters.host;
  if (filters.labels.length) query.labels = filters.labels;
  if (filters.ext.length) query.ext = filters.ext;
  return query;
}
