import type { components } from '../../../shared/contract/schema.gen.ts';
import { placeholders, type SqlFragment } from './webpage-filters.ts';
import { startOf, type TimePoint } from './time-ranges.ts';

export type ViewFilterInput = components['schemas']['ViewFilterInput'];
export type ViewFilter = components['schemas']['ViewFilter'];
export type ViewMatch = components['schemas']['ViewMatch'];

/**
 * Compiles a view's filters to one SQL condition on the `webpages` row aliased `w` (live pages
 * only). "and" needs every filter, "or" at least one; no filters means every page.
 */
export function viewFilterSql(
  filters: readonly ViewFilterInput[],
  match: ViewMatch,
  now: number,
): SqlFragment {
  const parts = filters.map((filter) => filterSql(filter, now));
  const params = parts.flatMap((part) => part.params);
  if (parts.length === 0) return { sql: 'w.deleted = 0', params };
  const joined = parts.map((part) => `(${part.sql})`).join(match === 'and' ? ' AND ' : ' OR ');
  return { sql: `w.deleted = 0 AND (${joined})`, params };
}

const ALWAYS: SqlFragment = { sql: '1', params: [] };
const NEVER: SqlFragment = { sql: '0', params: [] };

function filterSql(filter: ViewFilterInput, now: number): SqlFragment {
  switch (filter.key) {
    case 'host':
      return hostSql(filter.rightOperand, filter.operator);
    case 'liked':
      return { sql: 'w.liked = ?', params: [filter.operator ? 1 : 0] };
    case 'read-status':
      return { sql: 'w.read = ?', params: [filter.operator ? 1 : 0] };
    case 'annotation': {
      const operators = ['=', '<>', '>', '<'] as const;
      return {
        sql: `w.annotate_count ${operators[filter.operator]} ?`,
        params: [filter.rightOperand],
      };
    }
    case 'first-add-time': {
      const start = startOf(filter.rightOperand as TimePoint, now);
      return {
        sql: filter.operator === 0 ? 'w.first_add_time < ?' : 'w.first_add_time >= ?',
        params: [start],
      };
    }
    case 'label':
      return labelSql(filter.rightOperand, filter.operator);
    // A live page whose link (title) is counted on more than one live page has a twin; the
    // counts are kept by triggers (migration 3), so only the duplicated values are read. The pages
    // with those values are found by index and checked by rowid, which every index carries: the
    // page's own link and title (not in the list indexes) are never read.
    case 'link-duplicate':
      return negateUnless(filter.operator, {
        sql: `w.rowid IN (SELECT d.rowid FROM link_counts c JOIN webpages d ON d.link = c.link
          WHERE c.live > 1)`,
        params: [],
      });
    case 'title-duplicate':
      return negateUnless(filter.operator, {
        sql: `w.rowid IN (SELECT d.rowid FROM title_counts c JOIN webpages d ON d.title = c.title
          WHERE c.live > 1)`,
        params: [],
      });
  }
}

/** operator true: the host is one of them; false: it is not (pages without a link pass). */
function hostSql(hosts: readonly string[], isOneOf: boolean): SqlFragment {
  const values = [...new Set(hosts.map((host) => host.toLowerCase()))];
  if (values.length === 0) return isOneOf ? NEVER : ALWAYS;
  const inList = `w.host IN (${placeholders(values.length)})`;
  return isOneOf
    ? { sql: inList, params: values }
    : { sql: `w.host IS NULL OR NOT (${inList})`, params: values };
}

/**
 * 0 has all, 1 has any, 2 lacks at least one, 3 has none. The pages with the labels are found
 * once through the label index (not probed page by page).
 */
function labelSql(labels: readonly string[], operator: 0 | 1 | 2 | 3): SqlFragment {
  const values = [...new Set(labels)];
  const hasAll: SqlFragment =
    values.length === 0
      ? ALWAYS
      : {
          sql: `w.id IN (SELECT webpage_id FROM webpage_labels
            WHERE label IN (${placeholders(values.length)})
            GROUP BY webpage_id HAVING count(*) = ${values.length})`,
          params: values,
        };
  const hasAny: SqlFragment =
    values.length === 0
      ? NEVER
      : {
          sql: `w.id IN (SELECT webpage_id FROM webpage_labels
            WHERE label IN (${placeholders(values.length)}))`,
          params: values,
        };
  switch (operator) {
    case 0:
      return hasAll;
    case 1:
      return hasAny;
    case 2:
      return negate(hasAll);
    case 3:
      return negate(hasAny);
  }
}

function negateUnless(keep: boolean, fragment: SqlFragment): SqlFragment {
  return keep ? fragment : negate(fragment);
}

function negate(fragment: SqlFragment): SqlFragment {
  return { sql: `NOT (${fragment.sql})`, params: fragment.params };
}
