import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { makeWebpage, mockViewsApi } from '../testing/mock-views-api.ts';
import { TEMPORARY_VIEW_TITLE, viewPreviewOptions, type ViewPreviewInput } from './preview-view.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const input: ViewPreviewInput = {
  sort: 1,
  limit: 25,
  enableLimit: false,
  match: 'and',
  filters: [{ type: 0, key: 'liked', operator: true }],
};
const pages = Array.from({ length: 14 }, (_, i) => makeWebpage(i + 1));

function preview() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return queryClient.fetchQuery(viewPreviewOptions(input));
}

describe('viewPreviewOptions', () => {
  it("uses Folio's preview operation when the server has it", async () => {
    const api = mockViewsApi({
      webpages: pages,
      preview: () => ({ count: 3, webpages: pages.slice(0, 3) }),
    });
    const result = await preview();
    expect(result).toEqual({ count: 3, webpages: pages.slice(0, 3), via: 'server' });
    expect(api.requests).toEqual([
      { method: 'POST', path: '/views/preview', body: { ...input, title: 'Preview' } },
    ]);
  });

  it('without it (404): a temporary view is created, read and deleted', async () => {
    const api = mockViewsApi({ webpages: pages, noPreview: true });
    const result = await preview();
    expect(result.via).toBe('temporary-view');
    expect(result.count).toBe(14);
    expect(result.webpages).toEqual(pages.slice(0, 10));
    const [, create, read, remove] = api.requests;
    expect(create).toEqual({
      method: 'POST',
      path: '/views',
      body: { ...input, title: TEMPORARY_VIEW_TITLE },
    });
    const id = api.requests
      .find((r) => r.method === 'DELETE')
      ?.path.split('/')
      .at(-1);
    expect(read).toMatchObject({ method: 'GET', path: `/views/${id}/webpages` });
    expect(remove).toMatchObject({ method: 'DELETE', path: `/views/${id}` });
    expect(api.views()).toEqual([]);
  });

  it("takes HamsterBase's HTML answer to unknown paths as a missing operation", async () => {
    const api = mockViewsApi({
      webpages: pages,
      intercept: ({ path }) =>
        path === '/views/preview'
          ? new Response('<!doctype html><title>HamsterBase</title>', {
              headers: { 'content-type': 'text/html' },
            })
          : undefined,
    });
    expect((await preview()).via).toBe('temporary-view');
    expect(api.views()).toEqual([]);
  });

  it('deletes the temporary view even when reading it fails', async () => {
    const api = mockViewsApi({
      noPreview: true,
      intercept: ({ path }) =>
        path.endsWith('/webpages')
          ? Response.json({ message: 'boom' }, { status: 500 })
          : undefined,
    });
    await expect(preview()).rejects.toThrow('boom');
    expect(api.requests.at(-1)?.method).toBe('DELETE');
    expect(api.views()).toEqual([]);
  });

  it('reports other failures as they are (no temporary view)', async () => {
    const api = mockViewsApi({
      intercept: ({ path }) =>
        path === '/views/preview'
          ? Response.json({ message: 'body/sort must be <= 6' }, { status: 400 })
          : undefined,
    });
    await expect(preview()).rejects.toThrow('body/sort must be <= 6');
    expect(api.requests).toHaveLength(1);
  });
});
