// A view while it is edited: the form's values (the limit as typed), their validation, and the
// request that creates or saves it.
import type { components } from '../../../shared/contract/schema.gen.ts';

export type ViewFilterInput = components['schemas']['ViewFilterInput'];
export type ViewFilter = components['schemas']['ViewFilter'];
export type ViewMatch = components['schemas']['ViewMatch'];
export type CreateViewRequest = components['schemas']['CreateViewRequest'];
type WebpagesView = components['schemas']['WebpagesView'];

export const MAX_TITLE_LENGTH = 500;
export const MAX_DESCRIPTION_LENGTH = 5000;
export const MAX_LIMIT = 100_000;
export const MAX_FILTERS = 100;

/** HamsterBase's defaults for a new view. */
export const DEFAULT_SORT = 4;
export const DEFAULT_LIMIT = 25;

export interface ViewDraft {
  title: string;
  description: string;
  sort: number;
  enableLimit: boolean;
  /** As typed; see `parseLimit`. */
  limit: string;
  match: ViewMatch;
  filters: ViewFilterInput[];
}

export const emptyDraft: ViewDraft = {
  title: '',
  description: '',
  sort: DEFAULT_SORT,
  enableLimit: false,
  limit: String(DEFAULT_LIMIT),
  match: 'and',
  filters: [],
};

/** A filter without the id the server gave it (the form of a create or edit request). */
export function withoutId(filter: ViewFilterInput | ViewFilter): ViewFilterInput {
  switch (filter.key) {
    case 'host':
    case 'label':
    case 'annotation':
    case 'first-add-time':
      return {
        type: filter.type,
        key: filter.key,
        operator: filter.operator,
        rightOperand: filter.rightOperand,
      } as ViewFilterInput;
    default:
      return { type: filter.type, key: filter.key, operator: filter.operator } as ViewFilterInput;
  }
}

export function draftFromView(view: WebpagesView): ViewDraft {
  return {
    title: view.title,
    description: view.description,
    sort: view.sort,
    enableLimit: view.enableLimit,
    limit: String(view.limit),
    match: view.match,
    filters: view.filters.map(withoutId),
  };
}

/** A draft from a create request (a view made from the list's filters), defaults filled in. */
export function draftFromRequest(request: Partial<CreateViewRequest>): ViewDraft {
  return {
    title: request.title ?? '',
    description: request.description ?? '',
    sort: request.sort ?? DEFAULT_SORT,
    enableLimit: request.enableLimit ?? false,
    limit: String(request.limit ?? DEFAULT_LIMIT),
    match: request.match ?? 'and',
    filters: (request.filters ?? []).map(withoutId),
  };
}

/** The limit as a number when it is a whole number from 1 to MAX_LIMIT, else null. */
export function parseLimit(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const limit = Number(trimmed);
  return limit >= 1 && limit <= MAX_LIMIT ? limit : null;
}

export interface DraftErrors {
  title?: string;
  limit?: string;
  filters?: string;
}

export function validateDraft(draft: ViewDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!draft.title.trim()) errors.title = 'A view needs a title.';
  else if (draft.title.trim().length > MAX_TITLE_LENGTH) {
    errors.title = `A title has at most ${MAX_TITLE_LENGTH} characters.`;
  }
  if (draft.enableLimit && parseLimit(draft.limit) === null) {
    errors.limit = `The limit must be a whole number from 1 to ${MAX_LIMIT.toLocaleString('en')}.`;
  }
  if (draft.filters.length > MAX_FILTERS) {
    errors.filters = `A view has at most ${MAX_FILTERS} filters.`;
  }
  return errors;
}

export function hasErrors(errors: DraftErrors): boolean {
  return Object.keys(errors).length > 0;
}

/**
 * What selects the webpages (no title or description): the preview's input. A limit that is off
 * or not valid yet is sent as the default, so it does not change the preview.
 */
export function selectionOf(draft: ViewDraft): Omit<CreateViewRequest, 'title' | 'description'> {
  const limit = parseLimit(draft.limit);
  return {
    sort: draft.sort,
    enableLimit: draft.enableLimit && limit !== null,
    limit: limit ?? DEFAULT_LIMIT,
    match: draft.match,
    filters: draft.filters,
  };
}

/** The request that creates (or, every field given, saves) the view. Validate first. */
export function toRequest(draft: ViewDraft): CreateViewRequest {
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    ...selectionOf(draft),
  };
}

/** A filter's comparable form: its fields in one order, without the id. */
function filterKey(filter: ViewFilterInput | ViewFilter): string {
  const plain = withoutId(filter);
  return JSON.stringify([
    plain.type,
    plain.key,
    plain.operator,
    'rightOperand' in plain ? plain.rightOperand : null,
  ]);
}

/** Whether two lists hold the same filters in the same order (ids aside). */
export function sameFilters(
  a: readonly (ViewFilterInput | ViewFilter)[],
  b: readonly (ViewFilterInput | ViewFilter)[],
): boolean {
  return (
    a.length === b.length && a.every((filter, index) => filterKey(filter) === filterKey(b[index]!))
  );
}
