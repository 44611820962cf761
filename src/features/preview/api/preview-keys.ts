/**
 * Query keys of the preview feature. The content key is the same as the webpages feature's
 * `webpageKeys.content(id)`, so invalidating `['webpages']` covers it.
 */
export const previewKeys = {
  all: ['webpages'] as const,
  content: (id: string) => [...previewKeys.all, 'content', id] as const,
};
