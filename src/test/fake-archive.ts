// An in-memory archive behind a stubbed `fetch`, for component tests: it answers the API the way
// Folio's server does (envelopes, list paging without a total, list items with `link: null`),
// records every request, and lets a test refuse or delay some of them.
import { vi } from 'vitest';

import type { components } from '../../shared/contract/schema.gen.ts';

type Webpage = components['schemas']['Webpage'];
type ListItem = components['schemas']['WebpagesListItem'];

export interface RecordedRequest {
  method: string;
  /** The path under `/public/api/v1`, e.g. `/webpages/abc`. */
  path: string;
  search: URLSearchParams;
  body: unknown;
  keepalive: boolean;
}

export interface FakeArchiveOptions {
  /** How `/facets` answers: Folio's facets (default), a 404, or HamsterBase's HTML page. */
  facets?: 'server' | 'missing' | 'html';
  /** Original files by webpage id (for `/content`). */
  contents?: Record<string, Uint8Array>;
}

const API = '/public/api/v1';

export function makeWebpage(n: number, overrides: Partial<Webpage> = {}): Webpage {
  return {
    id: n.toString(16).padStart(64, '0'),
    title: `Article ${n}`,
    excerpt: `About article ${n}.`,
    firstAddTime: Date.UTC(2025, 0, 1) + n * 60_000,
    createTime: 21,
    liked: false,
    read: false,
    link: `https://site${n % 3}.example.com/article/${n}`,
    size: 1000 * n,
    ext: 'html',
    highlights: [],
    labels: [],
    ...overrides,
  };
}

export function toListItem(webpage: Webpage): ListItem {
  const { excerpt: _excerpt, highlights, link, ...rest } = webpage;
  return { ...rest, link: link ?? null, annotateCount: highlights.length };
}

function countBy(values: string[]) {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

export function fakeArchive(initial: readonly Webpage[], options: FakeArchiveOptions = {}) {
  const pages = new Map(initial.map((page) => [page.id, { ...page }]));
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  const archive = {
    pages,
    requests,
    /** Most requests answered at the same time. */
    maxInFlight: 0,
    /** Return a Response to refuse a write (PATCH / DELETE), or null to let it through. */
    refuse: (_request: RecordedRequest): Response | null => null,
    /** Awaited before each write is answered. */
    delay: (_request: RecordedRequest): Promise<void> => Promise.resolve(),
    writes: () => requests.filter((r) => r.method !== 'GET'),
    listRequests: () => requests.filter((r) => r.method === 'GET' && r.path === '/webpages'),
  };

  const live = () => [...pages.values()].sort((a, b) => b.firstAddTime - a.firstAddTime);

  const answer = async (request: RecordedRequest): Promise<Response> => {
    const ok = (data: unknown) => Response.json({ success: true, data });
    const notFound = () => Response.json({ message: 'webpage not found' }, { status: 404 });
    const { method, path, search } = request;
    if (method === 'GET' && path === '/facets') {
      if (options.facets === 'missing')
        return Response.json({ message: 'Not Found' }, { status: 404 });
      if (options.facets === 'html') {
        return new Response('<!doctype html><title>HamsterBase</title>', {
          headers: { 'content-type': 'text/html' },
        });
      }
      return ok({
        hosts: countBy(live().flatMap((page) => (page.link ? [new URL(page.link).host] : []))),
        labels: countBy(live().flatMap((page) => page.labels)),
      });
    }
    if (method === 'GET' && path === '/webpages') {
      const hosts = search.getAll('host');
      const labels = search.getAll('labels');
      const flag = (name: string, value: boolean) =>
        !search.has(name) || (search.get(name) === 'true') === value;
      const matching = live().filter(
        (page) =>
          flag('liked', page.liked) &&
          flag('read', page.read) &&
          (!hosts.length || (page.link !== undefined && hosts.includes(new URL(page.link).host))) &&
          labels.every((label) => page.labels.includes(label)),
      );
      const perPage = Number(search.get('per_page') ?? 30);
      const start = (Number(search.get('page') ?? 1) - 1) * perPage;
      return ok({ webpages: matching.slice(start, start + perPage).map(toListItem) });
    }
    const match = /^\/webpages\/([^/]+)(\/content)?$/.exec(path);
    const page = match ? pages.get(decodeURIComponent(match[1]!)) : undefined;
    if (!match || !page) return notFound();
    if (method === 'GET' && match[2]) {
      const bytes =
        options.contents?.[page.id] ?? new TextEncoder().encode(`<title>${page.title}</title>`);
      return ok(btoa(String.fromCharCode(...bytes)));
    }
    if (method === 'GET') return ok(page);
    const refused = archive.refuse(request);
    await archive.delay(request);
    if (refused) return refused;
    if (method === 'PATCH') {
      const next = { ...page, ...(request.body as Partial<Webpage>) };
      if (next.link === null) delete next.link;
      pages.set(page.id, next);
      return ok(next);
    }
    if (method === 'DELETE') {
      pages.delete(page.id);
      return ok(page);
    }
    return Response.json({ message: 'not allowed' }, { status: 405 });
  };

  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const text = request.method === 'GET' ? '' : await request.text();
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname.slice(url.pathname.indexOf(API) + API.length),
        search: url.searchParams,
        body: text ? JSON.parse(text) : null,
        keepalive: init?.keepalive ?? request.keepalive ?? false,
      };
      requests.push(recorded);
      inFlight++;
      archive.maxInFlight = Math.max(archive.maxInFlight, inFlight);
      try {
        return await answer(recorded);
      } finally {
        inFlight--;
      }
    }),
  );
  return archive;
}
