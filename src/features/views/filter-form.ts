// One filter while the user builds it: every kind's controls as the form holds them (a count as
// typed, hosts and labels as lists), to and from the API's filter.
import type { ViewFilterInput } from './view-draft.ts';

export type FilterKey = ViewFilterInput['key'];

export type FilterForm =
  | { key: 'host'; isOneOf: boolean; hosts: string[] }
  | { key: 'liked'; value: boolean }
  | { key: 'read-status'; value: boolean }
  | { key: 'annotation'; operator: 0 | 1 | 2 | 3; count: string }
  | { key: 'first-add-time'; operator: 0 | 1; period: 0 | 1 | 2 | 3 | 4 | 5 }
  | { key: 'label'; operator: 0 | 1 | 2 | 3; labels: string[] }
  | { key: 'link-duplicate'; value: boolean }
  | { key: 'title-duplicate'; value: boolean };

/** The kinds in menu order, with their names. */
export const FILTER_KINDS: readonly { key: FilterKey; name: string }[] = [
  { key: 'host', name: 'Host' },
  { key: 'liked', name: 'Liked' },
  { key: 'read-status', name: 'Read status' },
  { key: 'annotation', name: 'Highlight count' },
  { key: 'first-add-time', name: 'Date added' },
  { key: 'label', name: 'Labels' },
  { key: 'link-duplicate', name: 'Duplicate link' },
  { key: 'title-duplicate', name: 'Duplicate title' },
];

export const MAX_HIGHLIGHT_COUNT = 1_000_000;

/** Whether this client knows the filter's kind (another client may store others). */
export function isKnownFilter(filter: { key: unknown }): boolean {
  return FILTER_KINDS.some((kind) => kind.key === filter.key);
}

/** A new filter of a kind, with the most likely choices. */
export function newFilterForm(key: FilterKey): FilterForm {
  switch (key) {
    case 'host':
      return { key, isOneOf: true, hosts: [] };
    case 'liked':
      return { key, value: true };
    case 'read-status':
      return { key, value: false };
    case 'annotation':
      return { key, operator: 2, count: '0' };
    case 'first-add-time':
      return { key, operator: 1, period: 4 };
    case 'label':
      return { key, operator: 0, labels: [] };
    case 'link-duplicate':
    case 'title-duplicate':
      return { key, value: true };
  }
}

export function filterFormOf(filter: ViewFilterInput): FilterForm {
  switch (filter.key) {
    case 'host':
      return { key: 'host', isOneOf: filter.operator, hosts: [...filter.rightOperand] };
    case 'liked':
    case 'read-status':
    case 'link-duplicate':
    case 'title-duplicate':
      return { key: filter.key, value: filter.operator };
    case 'annotation':
      return { key: 'annotation', operator: filter.operator, count: String(filter.rightOperand) };
    case 'first-add-time':
      return { key: 'first-add-time', operator: filter.operator, period: filter.rightOperand };
    case 'label':
      return { key: 'label', operator: filter.operator, labels: [...filter.rightOperand] };
  }
}

export type FilterFormResult = { filter: ViewFilterInput } | { error: string };

/** The filter the form describes, or why it is not complete. */
export function filterFromForm(form: FilterForm): FilterFormResult {
  switch (form.key) {
    case 'host':
      if (!form.hosts.length) return { error: 'Choose at least one host.' };
      return { filter: { type: 2, key: 'host', operator: form.isOneOf, rightOperand: form.hosts } };
    case 'liked':
    case 'read-status':
    case 'link-duplicate':
    case 'title-duplicate':
      return { filter: { type: 0, key: form.key, operator: form.value } };
    case 'annotation': {
      const text = form.count.trim();
      const count = Number(text);
      if (!/^\d+$/.test(text) || count > MAX_HIGHLIGHT_COUNT) {
        return { error: 'The number of highlights must be a whole number, 0 or more.' };
      }
      return {
        filter: { type: 1, key: 'annotation', operator: form.operator, rightOperand: count },
      };
    }
    case 'first-add-time':
      return {
        filter: {
          type: 1,
          key: 'first-add-time',
          operator: form.operator,
          rightOperand: form.period,
        },
      };
    case 'label':
      if (!form.labels.length) return { error: 'Choose at least one label.' };
      return {
        filter: { type: 2, key: 'label', operator: form.operator, rightOperand: form.labels },
      };
  }
}

/** A host as the list's filter and the facets write it: lowercase, with the port, no scheme. */
export function normalizeHost(text: string): string | null {
  let value = text.trim().toLowerCase();
  if (!value) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).host;
    } catch {
      return null;
    }
  }
  return /^[^\s/?#@]+$/.test(value) ? value : null;
}
