// A view's preview on a server without `POST /views/preview` (HamsterBase), read with list requests
// only: a client never writes to the archive to show a preview (on HamsterBase a view created and
// deleted again stays in its synced workspace for good). Filters that have no list parameter
// (dates, "has none of", duplicates, "any of" several filters) get no preview.
import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components, operations } from '../../../../shared/contract/schema.gen.ts';

type ViewFilter = components['schemas']['ViewFilterInput'];
type ViewSort = components['schemas']['ViewSort'];
type ListSort = components['schemas']['WebpagesListSort'];

/** The list's parameters but paging: what selects and orders the webpages. */
export type ListSelection = Omit<
  NonNullable<operations['listWebpages']['parameters']['query']>,
  'page' | 'per_page'
>;

/**
 * The list's order for a view's sort. Random (0) has none: any order shows a fair sample of what
 * the view shows, in a different order each time.
 */
const LIST_SORTS: Record<ViewSort, ListSort> = {
  0: 'first_add_time_desc',
  1: 'title_asc',
  2: 'title_desc',
  3: 'first_add_time_asc',
  4: 'first_add_time_desc',
  5: 'annotate_count_asc',
  6: 'annotate_count_desc',
};

/** The contract's bound on repeated `host` and `labels` parameters. */
const MAX_REPEATED = 100;

/** Annotation filter (operator: 0 =, 1 ≠, 2 >, 3 <; operand N) as "has highlights", if it is one. */
function annotatedOf(operator: number, count: number): 'true' | 'false' | null {
  if ((operator === 0 && count === 0) || (operator === 3 && count === 1)) return 'false';
  if ((operator === 1 && count === 0) || (operator === 2 && count === 0)) return 'true';
  return null;
}

/**
 * The list parameters that select what a view's filters select, or null when they have none:
 * every filter must map onto a parameter, and the list ANDs its parameters, so "any" (`or`) maps
 * only with a single filter. A parameter is set at most once (labels add up: all are required).
 */
export function listSelectionOf(input: {
  filters?: ViewFilter[];
  match?: 'and' | 'or';
  sort?: ViewSort;
}): ListSelection | null {
  const filters = input.filters ?? [];
  if (input.match === 'or' && filters.length !== 1) return null;
  const selection: ListSelection = { sort: LIST_SORTS[input.sort ?? 4] };
  const labels: string[] = [];
  const set = <K extends 'liked' | 'read' | 'annotated' | 'host'>(
    key: K,
    value: NonNullable<ListSelection[K]>,
  ): boolean => {
    if (selection[key] !== undefined) return false;
    selection[key] = value;
    return true;
  };
  for (const filter of filters) {
    let mapped: boolean;
    switch (filter.key) {
      case 'liked':
        mapped = set('liked', filter.operator ? 'true' : 'false');
        break;
      case 'read-status':
        mapped = set('read', filter.operator ? 'true' : 'false');
        break;
      case 'annotation': {
        const annotated = annotatedOf(filter.operator, filter.rightOperand);
        mapped = annotated !== null && set('annotated', annotated);
        break;
      }
      case 'host':
        // "Is not one of" has no parameter; "is one of" nothing selects nothing.
        mapped =
          filter.operator &&
          filter.rightOperand.length > 0 &&
          filter.rightOperand.length <= MAX_REPEATED &&
          set('host', [...filter.rightOperand]);
        break;
      case 'label':
        // Has all of them (0), or has any (1) of a single one.
        mapped =
          filter.operator === 0 || (filter.operator === 1 && filter.rightOperand.length === 1);
        if (mapped) labels.push(...filter.rightOperand);
        break;
      default:
        mapped = false;
    }
    if (!mapped) return null;
  }
  const distinct = [...new Set(labels)];
  if (distinct.length > MAX_REPEATED) return null;
  if (distinct.length > 0) selection.labels = distinct;
  return selection;
}

type ListItem = components['schemas']['WebpagesListItem'];

export interface ListedPreview {
  /** How many webpages match (the view's limit applied), up to the bound. */
  count: number;
  /** At least `count` match: counting stopped at the bound (the next page may be empty). */
  atLeast: boolean;
  webpages: ListItem[];
}

/** Pages of this many webpages are read to count the matches… */
export const COUNT_PAGE_SIZE = 100;
/** …and at most this many: from 1,000 matches on, the preview says "at least 1,000". */
export const COUNT_PAGES = 10;

/**
 * Reads the list with `selection` page by page, to count the matches (up to the view's limit when
 * enabled, and up to COUNT_PAGES pages) and show the first `size` of them.
 */
export async function previewFromList(
  selection: ListSelection,
  view: { limit?: number; enableLimit?: boolean },
  size: number,
  signal: AbortSignal,
): Promise<ListedPreview> {
  const limit = view.enableLimit ? (view.limit ?? 25) : Infinity;
  const first: ListItem[] = [];
  let counted = 0;
  for (let page = 1; page <= COUNT_PAGES; page++) {
    const { webpages } = await unwrap(
      apiClient.GET('/webpages', {
        params: { query: { ...selection, page, per_page: COUNT_PAGE_SIZE } },
        signal,
      }),
    );
    if (first.length < size) first.push(...webpages.slice(0, size - first.length));
    counted += webpages.length;
    if (counted >= limit) return { count: limit, atLeast: false, webpages: first.slice(0, limit) };
    if (webpages.length < COUNT_PAGE_SIZE)
      return { count: counted, atLeast: false, webpages: first };
  }
  return { count: counted, atLeast: true, webpages: first };
}
