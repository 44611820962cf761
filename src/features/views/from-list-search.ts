// "Save as view": the library's URL search parameters (liked, read, annotated, host, label, ext,
// sort; read by the shared parser in src/lib/webpage-filters.ts) as a view, and what a view cannot
// express.
import { parseWebpageFilters } from '../../lib/webpage-filters.ts';
import type { CreateViewRequest, ViewFilterInput } from './view-draft.ts';
import { describeFilters } from './view-summary.ts';

/** The list's sorts and the view sort numbers that mean the same. */
const SORTS: Readonly<Record<string, number>> = {
  first_add_time_desc: 4,
  first_add_time_asc: 3,
  title_asc: 1,
  title_desc: 2,
  annotate_count_asc: 5,
  annotate_count_desc: 6,
};

export interface ViewFromList {
  /** The view (its title a suggestion from the filters). */
  request: CreateViewRequest;
  /** What the list filters by that a view cannot (each a sentence). */
  unsupported: string[];
}

export function viewFromListSearch(search: URLSearchParams): ViewFromList {
  const list = parseWebpageFilters(search);
  const filters: ViewFilterInput[] = [];
  if (list.liked !== 'any') filters.push({ type: 0, key: 'liked', operator: list.liked === 'yes' });
  if (list.read !== 'any') {
    filters.push({ type: 0, key: 'read-status', operator: list.read === 'yes' });
  }
  if (list.annotated !== 'any') {
    // With highlights: more than 0; without: exactly 0.
    const operator = list.annotated === 'yes' ? 2 : 0;
    filters.push({ type: 1, key: 'annotation', operator, rightOperand: 0 });
  }
  if (list.host.length) {
    filters.push({ type: 2, key: 'host', operator: true, rightOperand: list.host });
  }
  if (list.labels.length) {
    filters.push({ type: 2, key: 'label', operator: 0, rightOperand: list.labels });
  }

  const unsupported: string[] = [];
  if (list.ext.length) {
    unsupported.push(
      `Format (${list.ext.join(', ')}): a view cannot filter by format, so it shows every format.`,
    );
  }

  const sort = SORTS[search.get('sort') ?? ''] ?? 4;
  const title = filters.length ? describeFilters({ filters, match: 'and' }) : 'All webpages';
  return {
    request: {
      title: title.length > 80 ? `${title.slice(0, 79)}…` : title,
      description: '',
      sort,
      enableLimit: false,
      limit: 25,
      match: 'and',
      filters,
    },
    unsupported,
  };
}
