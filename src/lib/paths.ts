// Every href of the app comes from here; components never concatenate paths themselves.

/** Route patterns, for the router's route objects only. */
export const routePatterns = {
  home: '/',
  webpage: '/webpages/:id',
  webpagePreview: '/webpages/:id/preview',
  views: '/views',
  view: '/views/:id',
  upload: '/upload',
  settings: '/settings',
} as const;

function withSearch(pathname: string, search?: URLSearchParams): string {
  const query = search?.toString() ?? '';
  return query ? `${pathname}?${query}` : pathname;
}

export const paths = {
  /** The webpage list, optionally with its filters (see the webpages feature's `toSearchParams`). */
  home: (search?: URLSearchParams) => withSearch('/', search),
  webpage: (id: string) => `/webpages/${encodeURIComponent(id)}`,
  webpagePreview: (id: string) => `/webpages/${encodeURIComponent(id)}/preview`,
  views: () => '/views',
  view: (id: string) => `/views/${encodeURIComponent(id)}`,
  upload: () => '/upload',
  settings: () => '/settings',
} as const;
