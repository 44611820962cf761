// A webpage's detail knows the list it was opened from (for Previous / Next and the way back):
// the list's search parameters travel in the router's location state.
import {
  defaultListFilters,
  parseListSearch,
  toSearchParams,
  type ListFilters,
} from './filters.ts';

export interface WebpageLocationState {
  /** The list's search parameters (`liked=yes&page=2`), as `toSearchParams` writes them. */
  listSearch: string;
  /** Open the detail with its title being edited. */
  edit?: boolean;
}

export function webpageLocationState(filters: ListFilters, edit = false): WebpageLocationState {
  const state: WebpageLocationState = { listSearch: toSearchParams(filters).toString() };
  if (edit) state.edit = true;
  return state;
}

/** The list a detail was opened from, or the library's default list. */
export function listFiltersFromState(state: unknown): ListFilters {
  const search = (state as Partial<WebpageLocationState> | null)?.listSearch;
  return typeof search === 'string'
    ? parseListSearch(new URLSearchParams(search))
    : defaultListFilters;
}

export function editRequested(state: unknown): boolean {
  return (state as Partial<WebpageLocationState> | null)?.edit === true;
}
