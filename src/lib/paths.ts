// Every href of the app comes from here; components never concatenate paths themselves.

/** Route patterns, for the router's route objects only. */
export const routePatterns = {
  home: '/',
  webpage: '/webpages/:id',
  webpagePreview: '/webpages/:id/preview',
  views: '/views',
  viewNew: '/views/new',
  view: '/views/:id',
  viewEdit: '/views/:id/edit',
  upload: '/upload',
  settings: '/settings',
  search: '/search',
  highlights: '/highlights',
} as const;

function withSearch(pathname: string, search?: URLSearchParams): string {
  const query = search?.toString() ?? '';
  return query ? `${pathname}?${query}` : pathname;
}

/** The context a webpage's detail is opened in (Previous / Next move within it). */
export interface WebpageContext {
  /** A view's id: the detail's Previous / Next, `j` / `k` and way back follow the view. */
  view?: string;
}

/** The search parameter that carries a view as a webpage detail's context (`?view=<id>`). */
export const WEBPAGE_VIEW_PARAM = 'view';

function contextSearch(context?: WebpageContext): URLSearchParams | undefined {
  return context?.view ? new URLSearchParams({ [WEBPAGE_VIEW_PARAM]: context.view }) : undefined;
}

export const paths = {
  /** The webpage list, optionally with its filters (see the webpages feature's `toSearchParams`). */
  home: (search?: URLSearchParams) => withSearch('/', search),
  /** A webpage's detail; `context.view` opens it within a view (`/webpages/<id>?view=<view id>`). */
  webpage: (id: string, context?: WebpageContext) =>
    withSearch(`/webpages/${encodeURIComponent(id)}`, contextSearch(context)),
  /** A webpage alone in the whole window, in the same context as its detail. */
  webpagePreview: (id: string, context?: WebpageContext) =>
    withSearch(`/webpages/${encodeURIComponent(id)}/preview`, contextSearch(context)),
  views: () => '/views',
  viewNew: () => '/views/new',
  view: (id: string) => `/views/${encodeURIComponent(id)}`,
  viewEdit: (id: string) => `/views/${encodeURIComponent(id)}/edit`,
  upload: () => '/upload',
  settings: () => '/settings',
  /** Full-text search; `q` and the list's filters in the search parameters (see the search feature). */
  search: (search?: URLSearchParams) => withSearch('/search', search),
  /** Every highlight; `q`, `label`, `host` in the search parameters (see the highlights feature). */
  highlights: (search?: URLSearchParams) => withSearch('/highlights', search),
} as const;

/** The view a webpage's detail was opened in (see `paths.webpage(id, { view })`), else null. */
export function webpageViewContext(search: URLSearchParams): string | null {
  return search.get(WEBPAGE_VIEW_PARAM) || null;
}
