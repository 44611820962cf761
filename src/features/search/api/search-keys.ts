import type { SearchParams } from '../search-params.ts';

/** Query keys of the search feature; invalidate by prefix (`all`). */
export const searchKeys = {
  all: ['search'] as const,
  results: (search: SearchParams) => [...searchKeys.all, 'results', search] as const,
};
