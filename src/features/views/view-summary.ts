// Readable text for a view's sort, limit and filters. Labels and hosts are user data: the result is
// plain text, rendered as text.
import type { components } from '../../../shared/contract/schema.gen.ts';

type ViewFilter = components['schemas']['ViewFilterInput'];
type View = Pick<components['schemas']['WebpagesView'], 'match' | 'sort' | 'limit' | 'enableLimit'>;

/** By sort number: 0 random, 1 title A→Z, 2 Z→A, 3 oldest, 4 newest, 5 fewest, 6 most highlights. */
export const VIEW_SORT_LABELS: readonly string[] = [
  'Random',
  'Title A→Z',
  'Title Z→A',
  'Oldest first',
  'Newest first',
  'Fewest highlights first',
  'Most highlights first',
];

/** Highlight count comparisons, by operator: 0 =, 1 ≠, 2 >, 3 <. */
export const COMPARISON_SYMBOLS = ['=', '≠', '>', '<'] as const;

/** Points in time of the date filter, by operand number. */
export const PERIOD_LABELS: readonly string[] = [
  'today',
  'this week',
  'this month',
  'yesterday',
  'last week',
  'last month',
];

/** The periods in the order a menu shows them (by operand number). */
export const PERIOD_ORDER = [0, 3, 1, 4, 2, 5] as const;

/** Label filter operators: 0 has all, 1 has any, 2 lacks at least one, 3 has none. */
export const LABEL_OPERATOR_LABELS: readonly string[] = [
  'has all of',
  'has any of',
  'lacks one of',
  'has none of',
];

function list(values: readonly string[]): string {
  return values.length ? values.join(', ') : '(none)';
}

function hostText(hosts: readonly string[], isOneOf: boolean): string {
  if (hosts.length === 1) return `Host ${isOneOf ? 'is' : 'is not'} ${hosts[0]}`;
  return `Host ${isOneOf ? 'is one of' : 'is none of'} ${list(hosts)}`;
}

function labelText(labels: readonly string[], operator: number): string {
  if (labels.length === 1) {
    return operator === 0 || operator === 1 ? `Has label ${labels[0]}` : `Lacks label ${labels[0]}`;
  }
  const phrases = [
    'Has all the labels',
    'Has any of the labels',
    'Lacks one of the labels',
    'Has none of the labels',
  ];
  return `${phrases[operator] ?? 'Labels ?'} ${list(labels)}`;
}

/** "Host is example.org", "Added after the start of last week", "Highlights > 0". */
export function describeFilter(filter: ViewFilter): string {
  switch (filter.key) {
    case 'host':
      return hostText(filter.rightOperand, filter.operator);
    case 'liked':
      return filter.operator ? 'Liked' : 'Not liked';
    case 'read-status':
      return filter.operator ? 'Read' : 'Unread';
    case 'annotation':
      return `Highlights ${COMPARISON_SYMBOLS[filter.operator] ?? '?'} ${filter.rightOperand}`;
    case 'first-add-time':
      return `Added ${filter.operator === 0 ? 'before' : 'after'} the start of ${
        PERIOD_LABELS[filter.rightOperand] ?? 'an unknown period'
      }`;
    case 'label':
      return labelText(filter.rightOperand, filter.operator);
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
