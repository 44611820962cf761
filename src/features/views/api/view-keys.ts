/** Query keys of the views feature; invalidate by prefix (`all`, `detail(id)` covers its pages). */
export const viewKeys = {
  all: ['views'] as const,
  list: () => [...viewKeys.all, 'list'] as const,
  detail: (id: string) => [...viewKeys.all, 'detail', id] as const,
  webpages: (id: string) => [...viewKeys.detail(id), 'webpages'] as const,
};
