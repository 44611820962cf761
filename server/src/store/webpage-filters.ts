import type { WebpageExt } from './records.ts';

/** The list and search filters; all of them must hold. */
export interface WebpageFilters {
  liked?: boolean;
  read?: boolean;
  /** Has highlights (true) or none (false). */
  annotated?: boolean;
  /** The link's host is one of these (host includes the port). */
  hosts?: readonly string[];
  /** The page has every one of these labels. */
  labels?: readonly string[];
  exts?: readonly WebpageExt[];
  /** The link is exactly this (Folio's extension of the list: the other captures of a page). */
  link?: string;
}

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/**
 * How the label filters are checked: `set` finds the pages of each label through the label index
 * (cheap when the labels are rare), `probe` looks each page up in the page's own labels as the
 * pages are read in order (cheap when they are common and few pages are needed).
 */
export type LabelCheck = 'set' | 'probe';

/**
 * SQL conditions (on the `webpages` row aliased `w`, always including `deleted = 0`) for the
 * filters. The SQL depends only on which filters are set and how many values they have, so the
 * statements can be cached.
 */
export function webpageFilterSql(
  filters: WebpageFilters,
  labelCheck: LabelCheck = 'set',
): SqlFragment {
  const conditions = ['w.deleted = 0'];
  const params: unknown[] = [];
  if (filters.liked !== undefined) {
    conditions.push('w.liked = ?');
    params.push(filters.liked ? 1 : 0);
  }
  if (filters.read !== undefined) {
    conditions.push('w.read = ?');
    params.push(filters.read ? 1 : 0);
  }
  if (filters.annotated !== undefined) {
    conditions.push(filters.annotated ? 'w.annotate_count > 0' : 'w.annotate_count = 0');
  }
  const hosts = unique(filters.hosts?.map((host) => host.toLowerCase()));
  if (hosts.length > 0) {
    conditions.push(`w.host IN (${placeholders(hosts.length)})`);
    params.push(...hosts);
  }
  const exts = unique(filters.exts);
  if (exts.length > 0) {
    conditions.push(`w.ext IN (${placeholders(exts.length)})`);
    params.push(...exts);
  }
  if (filters.link !== undefined) {
    conditions.push('w.link = ?');
    params.push(filters.link);
  }
  // Last: the columns above are checked first, from the index.
  for (const label of unique(filters.labels)) {
    conditions.push(
      labelCheck === 'set'
        ? 'w.id IN (SELECT webpage_id FROM webpage_labels WHERE label = ?)'
        : 'EXISTS (SELECT 1 FROM webpage_labels l WHERE l.webpage_id = w.id AND l.label = ?)',
    );
    params.push(label);
  }
  return { sql: conditions.join(' AND '), params };
}

export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

function unique<T>(values: readonly T[] | undefined): T[] {
  return values === undefined ? [] : [...new Set(values)];
}
