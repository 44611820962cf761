// The highlights page's address: `/highlights?q=…&label=…&host=…`. Labels and hosts are read and
// written as the library writes them (lib/webpage-filters.ts), so the same parameters mean the same.
import {
  appendWebpageFilters,
  noWebpageFilters,
  parseWebpageFilters,
} from '../../lib/webpage-filters.ts';

/** The server refuses longer searches. */
export const MAX_HIGHLIGHT_QUERY = 500;

export interface HighlightsParams {
  /** Words the highlight's text or note must all contain, trimmed; '' for none. */
  q: string;
  /** The page has every one of these labels (sorted, deduplicated). */
  labels: string[];
  /** The page's host is one of these (sorted, deduplicated). */
  host: string[];
}

export function parseHighlightsParams(params: URLSearchParams): HighlightsParams {
  const { labels, host } = parseWebpageFilters(params);
  return { q: (params.get('q') ?? '').trim().slice(0, MAX_HIGHLIGHT_QUERY), labels, host };
}

/** The address's parameters (`q` first); empty ones are left out. */
export function toHighlightsParams(search: HighlightsParams): URLSearchParams {
  const params = new URLSearchParams();
  if (search.q) params.set('q', search.q);
  appendWebpageFilters(params, { ...noWebpageFilters, labels: search.labels, host: search.host });
  return params;
}

/** A change, made canonical (as if read back from the address). */
export function updateHighlightsParams(
  search: HighlightsParams,
  change: Partial<HighlightsParams>,
): HighlightsParams {
  return parseHighlightsParams(toHighlightsParams({ ...search, ...change }));
}

/** The parameter of a webpage's detail that names a highlight to scroll to and flash. */
export const HIGHLIGHT_PARAM = 'highlight';

/** A webpage's detail (`webpageHref`, from the paths module) scrolled to one of its highlights. */
export function highlightHref(webpageHref: string, highlightId: string): string {
  const url = new URL(webpageHref, 'http://folio.invalid');
  url.searchParams.set(HIGHLIGHT_PARAM, highlightId);
  return `${url.pathname}${url.search}`;
}
