// "Save as view": the library's URL search parameters (liked, read, annotated, host, label, ext,
// sort; see the webpages feature's filters) as a view, and what a view cannot express.
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

const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 300;

export interface ViewFromList {
  /** The view (its title a suggestion from the filters). */
  request: CreateViewRequest;
  /** What the list filters by that a view cannot (each a sentence). */
  unsupported: string[];
}

/** Like the list: trimmed, not empty, not too long, without duplicates, sorted. */
function values(search: URLSearchParams, name: string): string[] {
  const kept = search
    .getAll(name)
    .map((value) => value.trim())
    .filter((value) => value && value.length <= MAX_VALUE_LENGTH);
  return [...new Set(kept)].sort().slice(0, MAX_VALUES);
}

/** `yes` / `no` as the list reads them; anything else is "any". */
function yesNo(search: URLSearchParams, name: string): boolean | null {
  const value = search.get(name);
  return value === 'yes' ? true : value === 'no' ? false : null;
}

export function viewFromListSearch(search: URLSearchParams): ViewFromList {
  const filters: ViewFilterInput[] = [];
  const liked = yesNo(search, 'liked');
  if (liked !== null) filters.push({ type: 0, key: 'liked', operator: liked });
  const read = yesNo(search, 'read');
  if (read !== null) filters.push({ type: 0, key: 'read-status', operator: read });
  const annotated = yesNo(search, 'annotated');
  if (annotated !== null) {
    // With highlights: more than 0; without: exactly 0.
    filters.push({ type: 1, key: 'annotation', operator: annotated ? 2 : 0, rightOperand: 0 });
  }
  const hosts = values(search, 'host');
  if (hosts.length) filters.push({ type: 2, key: 'host', operator: true, rightOperand: hosts });
  const labels = values(search, 'label');
  if (labels.length) filters.push({ type: 2, key: 'label', operator: 0, rightOperand: labels });

  const unsupported: string[] = [];
  const exts = values(search, 'ext').filter((ext) => ['html', 'mhtml', 'webarchive'].includes(ext));
  if (exts.length) {
    unsupported.push(
      `Format (${exts.join(', ')}): a view cannot filter by format, so it shows every format.`,
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
