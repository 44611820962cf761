import type { ListFilters } from '../filters.ts';

/** Query keys of the webpages feature; invalidate by prefix (`lists()`, `details()`, `all`). */
export const webpageKeys = {
  all: ['webpages'] as const,
  lists: () => [...webpageKeys.all, 'list'] as const,
  list: (filters: ListFilters) => [...webpageKeys.lists(), filters] as const,
  /**
   * The pages saved from one link (see `webpageCapturesOptions`). Under `lists()` and shaped like a
   * list page: refreshed with the lists, and the lists' optimistic edits and deletes apply to it.
   */
  captures: (link: string) => [...webpageKeys.lists(), 'captures', link] as const,
  details: () => [...webpageKeys.all, 'detail'] as const,
  detail: (id: string) => [...webpageKeys.details(), id] as const,
  content: (id: string) => [...webpageKeys.all, 'content', id] as const,
  /** The file the preview reads (see `webpagePreviewFileOptions`), under `content(id)`. */
  previewFile: (id: string) => [...webpageKeys.content(id), 'preview'] as const,
  /** Hosts and labels in use (filter menus, label suggestions). */
  facets: () => [...webpageKeys.all, 'facets'] as const,
};
