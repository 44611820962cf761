import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { makeViewWebpage } from '../../../test/fake-views-api.ts';
import { COUNT_PAGE_SIZE, COUNT_PAGES } from './preview-from-list.ts';
import { viewPreviewOptions } from './preview-view.ts';
import type { ViewPreviewInput } from './types.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const likedByTitle: ViewPreviewInput = {
  sort: 1,
  limit: 25,
  enableLimit: false,
  match: 'and',
  filters: [{ type: 0, key: 'liked', operator: true }],
};

interface Seen {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
}

/**
 * A server behind a stubbed `fetch`: `preview` answers `POST /views/preview` (undefined: a 404),
 * `GET /webpages` answers pages of `matching` webpages (the filters are the server's business, so
 * they are only recorded). Anything else is a 404.
 */
function stubServer({ matching = 0, preview }: { matching?: number; preview?: () => Response }) {
  const seen: Seen[] = [];
  const pages = Array.from({ length: matching }, (_, i) => makeViewWebpage(i + 1));
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const request = input as Request;
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/public\/api\/v1/, '');
      const query: Seen['query'] = {};
      for (const key of new Set(url.searchParams.keys())) {
        const values = url.searchParams.getAll(key);
        query[key] = values.length > 1 ? values : values[0]!;
      }
      seen.push({ method: request.method, path, query });
      if (path === '/views/preview' && request.method === 'POST' && preview) return preview();
      if (path === '/webpages' && request.method === 'GET') {
        const page = Number(query.page);
        const perPage = Number(query.per_page);
        const webpages = pages.slice((page - 1) * perPage, page * perPage);
        return Response.json({ success: true, data: { webpages } });
      }
      return Response.json({ message: 'not found' }, { status: 404 });
    }),
  );
  return { seen, pages };
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

describe('viewPreviewOptions', () => {
  it("uses Folio's preview operation when the server has it", async () => {
    const pages = [makeViewWebpage(1), makeViewWebpage(2), makeViewWebpage(3)];
    const { seen } = stubServer({
      preview: () => Response.json({ success: true, data: { count: 3, webpages: pages } }),
    });
    const result = await newClient().fetchQuery(viewPreviewOptions(likedByTitle));
    expect(result).toEqual({ count: 3, atLeast: false, webpages: pages, via: 'server' });
    expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /views/preview']);
  });

  it('without it (404): reads the list with the filters as parameters, and writes nothing', async () => {
    const { seen, pages } = stubServer({ matching: 14 });
    const result = await newClient().fetchQuery(viewPreviewOptions(likedByTitle));
    expect(result).toEqual({
      count: 14,
      atLeast: false,
      webpages: pages.slice(0, 10),
      via: 'list',
    });
    expect(seen).toEqual([
      { method: 'POST', path: '/views/preview', query: {} },
      {
        method: 'GET',
        path: '/webpages',
        query: { liked: 'true', sort: 'title_asc', page: '1', per_page: String(COUNT_PAGE_SIZE) },
      },
    ]);
  });

  it("takes HamsterBase's HTML answer to unknown paths as a missing preview", async () => {
    const { seen } = stubServer({
      matching: 2,
      preview: () =>
        new Response('<!doctype html><title>HamsterBase</title>', {
          headers: { 'content-type': 'text/html' },
        }),
    });
    const result = await newClient().fetchQuery(viewPreviewOptions(likedByTitle));
    expect(result).toMatchObject({ count: 2, via: 'list' });
    expect(seen.filter(({ method }) => method !== 'GET')).toHaveLength(1);
  });

  it('asks the server for its preview once, then goes straight to the list', async () => {
    const { seen } = stubServer({ matching: 3 });
    const client = newClient();
    await client.fetchQuery(viewPreviewOptions(likedByTitle));
    await client.fetchQuery(viewPreviewOptions({ ...likedByTitle, sort: 2 }));
    await client.fetchQuery(viewPreviewOptions({ ...likedByTitle, filters: [] }));
    expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /views/preview',
      'GET /webpages',
      'GET /webpages',
      'GET /webpages',
    ]);
    expect(seen[2]?.query.sort).toBe('title_desc');
    expect(seen[3]?.query.liked).toBeUndefined();
  });

  it('says a preview is not available when the filters have no list parameter', async () => {
    const { seen } = stubServer({ matching: 3 });
    const result = await newClient().fetchQuery(
      viewPreviewOptions({
        ...likedByTitle,
        filters: [{ type: 1, key: 'first-add-time', operator: 1, rightOperand: 2 }],
      }),
    );
    expect(result).toEqual({ via: 'unavailable' });
    expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /views/preview']);
  });

  it('counts across pages, stops at the view’s limit, and says "at least" at its bound', async () => {
    const counted = stubServer({ matching: 250 });
    const all = await newClient().fetchQuery(viewPreviewOptions(likedByTitle));
    expect(all).toMatchObject({ count: 250, atLeast: false });
    expect(counted.seen.filter(({ path }) => path === '/webpages')).toHaveLength(3);

    const limited = stubServer({ matching: 250 });
    const capped = await newClient().fetchQuery(
      viewPreviewOptions({ ...likedByTitle, enableLimit: true, limit: 120 }),
    );
    expect(capped).toMatchObject({ count: 120, atLeast: false });
    expect(limited.seen.filter(({ path }) => path === '/webpages')).toHaveLength(2);

    const few = stubServer({ matching: 250 });
    const five = await newClient().fetchQuery(
      viewPreviewOptions({ ...likedByTitle, enableLimit: true, limit: 5 }),
    );
    expect(five).toMatchObject({ count: 5, atLeast: false });
    expect(five.via !== 'unavailable' && five.webpages).toHaveLength(5);
    expect(few.seen.filter(({ path }) => path === '/webpages')).toHaveLength(1);

    const many = stubServer({ matching: COUNT_PAGE_SIZE * COUNT_PAGES + 1 });
    const bounded = await newClient().fetchQuery(viewPreviewOptions(likedByTitle));
    expect(bounded).toMatchObject({ count: COUNT_PAGE_SIZE * COUNT_PAGES, atLeast: true });
    expect(many.seen.filter(({ path }) => path === '/webpages')).toHaveLength(COUNT_PAGES);
  });

  it('reports other failures as they are, and reads no list', async () => {
    const { seen } = stubServer({
      preview: () => Response.json({ message: 'body/sort must be <= 6' }, { status: 400 }),
    });
    await expect(newClient().fetchQuery(viewPreviewOptions(likedByTitle))).rejects.toThrow(
      'body/sort must be <= 6',
    );
    expect(seen).toHaveLength(1);
  });
});
