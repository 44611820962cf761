// Readable text for a view's sort, limit and filters. Labels and hosts are user data: the result is
// plain text, rendered as text.
import type { components } from '../../api/schema.gen.ts';

type ViewFilter = components['schemas']['ViewFilterInput'];
type View = Pick<components['schemas']['WebpagesView'], 'match' | 'sort' | 'limit' | 'enableLimit'>;

export const VIEW_SORT_LABELS: readonly string[] = [
  'Random',
  'Title A→Z',
  'Title Z→A',
  'Oldest first',
  'Newest first',
  'Fewest highlights',
  'Most highlights',
];

const COMPARISONS = ['=', '≠', '>', '<'] as const;
const PERIODS = [
  'today',
  'this week',
  'this month',
  'yesterday',
  'last week',
  'last month',
] as const;
const LABEL_OPERATORS = ['has all of', 'has any of', 'lacks one of', 'has none of'] as const;

function list(values: readonly string[]): string {
  return values.length ? values.join(', ') : '(none)';
}

export function describeFilter(filter: ViewFilter): string {
  switch (filter.key) {
    case 'host':
      return `${filter.operator ? 'Host is' : 'Host is not'} ${list(filter.rightOperand)}`;
    case 'liked':
      return filter.operator ? 'Liked' : 'Not liked';
    case 'read-status':
      return filter.operator ? 'Read' : 'Unread';
    case 'annotation':
      return `Highlights ${COMPARISONS[filter.operator] ?? '?'} ${filter.rightOperand}`;
    case 'first-add-time':
      return `Added ${filter.operator === 0 ? 'before' : 'since'} the start of ${
        PERIODS[filter.rightOperand] ?? 'an unknown period'
      }`;
    case 'label':
      return `Labels: ${LABEL_OPERATORS[filter.operator] ?? '?'} ${list(filter.rightOperand)}`;
    case 'link-duplicate':
      return filter.operator ? 'Duplicate link' : 'Unique link';
    case 'title-duplicate':
      return filter.operator ? 'Duplicate title' : 'Unique title';
    default: {
      // A key this client does not know (the server matches everything with it).
      const key = (filter as { key?: unknown }).key;
      return `Unknown filter (${typeof key === 'string' ? key : '?'})`;
    }
  }
}

/** "Liked and Unread", "Liked or Host is a.com", "All webpages". */
export function describeFilters(view: {
  filters: readonly ViewFilter[];
  match: View['match'];
}): string {
  if (!view.filters.length) return 'All webpages';
  return view.filters.map(describeFilter).join(view.match === 'or' ? ' or ' : ' and ');
}

/** "Newest first, first 25", "Title A→Z". */
export function describeOrder(view: Pick<View, 'sort' | 'limit' | 'enableLimit'>): string {
  const sort = VIEW_SORT_LABELS[view.sort] ?? `Sort ${view.sort}`;
  return view.enableLimit ? `${sort}, first ${view.limit}` : sort;
}
