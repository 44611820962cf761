// Webpages the user deleted whose delete is not sent yet (the undo window): every list leaves
// them out, even when it is loaded again from the server meanwhile. This is client state: the
// list's cache keeps what the server answered, and the list applies it with `select`
// (`useWithoutHidden`), so a change here re-selects without a request.
import { useCallback, useSyncExternalStore } from 'react';

import type { WebpageListPage } from './api/list-webpages.ts';

/** The hidden ids; replaced (never changed in place) on every change, so it is its own version. */
let hidden: ReadonlySet<string> = new Set();
const listeners = new Set<() => void>();

function replace(next: ReadonlySet<string>): void {
  hidden = next;
  for (const listener of listeners) listener();
}

export function isHidden(id: string): boolean {
  return hidden.has(id);
}

export function hideWebpages(ids: Iterable<string>): void {
  replace(new Set([...hidden, ...ids]));
}

export function unhideWebpages(ids: Iterable<string>): void {
  const next = new Set(hidden);
  for (const id of ids) next.delete(id);
  if (next.size !== hidden.size) replace(next);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const snapshot = () => hidden;

/**
 * A list page without the hidden webpages, its total less those the server still counted. The
 * same page when none of its items is hidden.
 */
export function withoutHidden(page: WebpageListPage, ids: ReadonlySet<string> = hidden) {
  if (!page.items.some((item) => ids.has(item.id))) return page;
  const items = page.items.filter((item) => !ids.has(item.id));
  const removed = page.items.length - items.length;
  return {
    ...page,
    items,
    ...(page.total === undefined ? {} : { total: Math.max(0, page.total - removed) }),
  };
}

/** `select` for a list query: a new function whenever the hidden webpages change. */
export function useWithoutHidden(): (page: WebpageListPage) => WebpageListPage {
  const ids = useSyncExternalStore(subscribe, snapshot);
  return useCallback((page: WebpageListPage) => withoutHidden(page, ids), [ids]);
}
