// The new-view editor can start from given values (a view made from the list's filters): they
// travel in the router's location state.
import type { CreateViewRequest } from './view-draft.ts';

export interface NewViewState {
  newView: {
    initial: CreateViewRequest;
    /** What the source could not carry over (shown above the form). */
    notes: string[];
  };
}

export function newViewState(initial: CreateViewRequest, notes: readonly string[]): NewViewState {
  return { newView: { initial, notes: [...notes] } };
}

/** The starting values in a location state, if it has valid ones. */
export function readNewViewState(state: unknown): NewViewState['newView'] | null {
  const value = (state as Partial<NewViewState> | null)?.newView;
  if (!value || typeof value !== 'object' || typeof value.initial !== 'object') return null;
  return {
    initial: value.initial,
    notes: Array.isArray(value.notes) ? value.notes.filter((note) => typeof note === 'string') : [],
  };
}
