// Component tests: an in-memory archive behind a stubbed `fetch`, speaking the views API the way
// Folio's server does (or, with `ignoreFilterPatch`, the way HamsterBase ignores filters in PATCH).
import { vi } from 'vitest';

import type { components } from '../../shared/contract/schema.gen.ts';

type WebpagesView = components['schemas']['WebpagesView'];
type ViewWebpage = components['schemas']['ViewWebpagesListItem'];
type FacetValue = components['schemas']['FacetValue'];

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeViewsApiOptions {
  views?: WebpagesView[];
  /** The webpages of every view (or of one view, by id). */
  webpages?: ViewWebpage[] | Record<string, ViewWebpage[]>;
  /** PATCH keeps the old filters, like HamsterBase. */
  ignoreFilterPatch?: boolean;
  /** No `POST /views/preview` (404), like HamsterBase. */
  noPreview?: boolean;
  /** What `POST /views/preview` answers; by default every webpage matches. */
  preview?: (body: Record<string, unknown>) => { count: number; webpages: ViewWebpage[] };
  facets?: { hosts: FacetValue[]; labels: FacetValue[] };
  /** Answers a request before the fake does (to make a step fail); undefined lets it through. */
  intercept?: (request: RecordedRequest) => Response | undefined;
}

let nextId = 1;

export function makeView(overrides: Partial<WebpagesView> = {}): WebpagesView {
  return {
    id: `view-${nextId++}`,
    title: 'A view',
    description: '',
    createdAt: Date.UTC(2026, 0, 1) + nextId,
    enableLimit: false,
    limit: 25,
    sort: 4,
    filters: [],
    match: 'and',
    ...overrides,
  };
}

export function makeViewWebpage(n: number, overrides: Partial<ViewWebpage> = {}): ViewWebpage {
  return {
    id: n.toString(16).padStart(64, '0'),
    title: `Article ${n}`,
    firstAddTime: Date.UTC(2025, 0, 1) + n * 60_000,
    createTime: 21,
    liked: false,
    read: true,
    link: `https://site${n % 7}.example.com/article/${n}`,
    size: 1000 + n,
    ext: 'html',
    labels: [],
    annotateCount: 0,
    lastModified: 0,
    deleted: 0,
    highlights: [],
    ...overrides,
  };
}

const ok = (data: unknown) => Response.json({ success: true, data });
const notFound = (message: string) => Response.json({ message }, { status: 404 });

function withIds(filters: unknown): WebpagesView['filters'] {
  return ((filters as Record<string, unknown>[] | undefined) ?? []).map((filter) => ({
    ...filter,
    id: `filter-${nextId++}`,
  })) as WebpagesView['filters'];
}

/** Stubs `fetch` with the in-memory archive; returns what it saw and holds. */
export function fakeViewsApi(options: FakeViewsApiOptions = {}) {
  let views = [...(options.views ?? [])];
  const requests: RecordedRequest[] = [];
  const webpagesOf = (id: string): ViewWebpage[] => {
    const source = options.webpages ?? [];
    return Array.isArray(source) ? source : (source[id] ?? []);
  };

  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const request = input as Request;
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/public\/api\/v1/, '');
    const text =
      request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
    const body: unknown = text ? JSON.parse(text) : null;
    const recorded = { method: request.method, path, body };
    requests.push(recorded);
    const intercepted = options.intercept?.(recorded);
    if (intercepted) return intercepted;

    const fields = (body ?? {}) as Record<string, unknown>;
    const viewMatch = /^\/views\/([^/]+)(\/webpages)?$/.exec(path);
    if (path === '/views' && request.method === 'GET') return ok(views);
    if (path === '/views' && request.method === 'POST') {
      const created = makeView({
        ...fields,
        filters: withIds(fields.filters),
      } as Partial<WebpagesView>);
      views = [created, ...views];
      return ok(created);
    }
    if (path === '/views/preview' && request.method === 'POST') {
      if (options.noPreview) return notFound('not found');
      const all = webpagesOf('');
      return ok(options.preview?.(fields) ?? { count: all.length, webpages: all.slice(0, 10) });
    }
    if (viewMatch) {
      const id = decodeURIComponent(viewMatch[1]!);
      const view = views.find((candidate) => candidate.id === id);
      if (!view) return notFound(`view ${id} not found`);
      if (viewMatch[2]) return ok({ webpages: webpagesOf(id) });
      if (request.method === 'GET') return ok(view);
      if (request.method === 'DELETE') {
        views = views.filter((candidate) => candidate.id !== id);
        return ok(view);
      }
      if (request.method === 'PATCH') {
        const { filters, ...rest } = fields;
        const patched: WebpagesView = {
          ...view,
          ...(rest as Partial<WebpagesView>),
          ...(filters === undefined || options.ignoreFilterPatch
            ? {}
            : { filters: withIds(filters) }),
        };
        views = views.map((candidate) => (candidate.id === id ? patched : candidate));
        return ok(patched);
      }
    }
    if (path === '/facets') return options.facets ? ok(options.facets) : notFound('not found');
    const webpageMatch = /^\/webpages\/([^/]+)$/.exec(path);
    if (webpageMatch && request.method === 'GET') {
      const source = options.webpages ?? [];
      const all = Array.isArray(source) ? source : Object.values(source).flat();
      const page = all.find((candidate) => candidate.id === webpageMatch[1]);
      if (!page) return notFound('webpage not found');
      const { annotateCount: _count, lastModified: _modified, deleted: _deleted, ...rest } = page;
      return ok({ ...rest, excerpt: '', highlights: page.highlights ?? [] });
    }
    if (path === '/webpages') return ok({ webpages: [] });
    return notFound('not found');
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    /** The writes (everything but GET), in order. */
    writes: () => requests.filter((request) => request.method !== 'GET'),
    views: () => views,
  };
}
