import type { ViewPreviewInput } from './types.ts';

/** Query keys of the views feature; invalidate by prefix (`all`, `detail(id)` covers its pages). */
export const viewKeys = {
  all: ['views'] as const,
  list: () => [...viewKeys.all, 'list'] as const,
  detail: (id: string) => [...viewKeys.all, 'detail', id] as const,
  webpages: (id: string) => [...viewKeys.detail(id), 'webpages'] as const,
  /** The view's RSS feed (Folio extension). */
  feed: (id: string) => [...viewKeys.detail(id), 'feed'] as const,
  /** What an unsaved view would show (the editor's live preview). */
  preview: (input: ViewPreviewInput) => [...viewKeys.all, 'preview', input] as const,
};
