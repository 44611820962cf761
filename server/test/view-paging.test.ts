// Folio's paging of a view's webpages (`per_page`, `page`, `hasNext`): pages are slices of the
// whole view in its order, each with its own ETag; a random order and a request without
// `per_page` answer the whole view without `hasNext`, as HamsterBase always does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, operationUrl, upload } from './support/api.ts';
import { fileFor } from './support/seed.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  for (let n = 0; n < 7; n++) {
    const title = `Paged ${String(n).padStart(2, '0')}`;
    await upload(server, fileFor({ key: `p${n}`, title, ext: 'html' }), 'html');
  }
});

afterAll(async () => {
  await server.close();
});

const titlesOf = (data: { webpages: { title: string }[] }) =>
  data.webpages.map((page) => page.title);

async function page(viewId: string, query: Record<string, number>) {
  return ok(server, 'listViewWebpages', { params: { view_id: viewId }, query });
}

describe('paging a view’s webpages', () => {
  it('pages are slices of the view in its order; hasNext says whether more follow', async () => {
    const view = await ok(server, 'createView', { body: { title: 'A→Z', sort: 1 } });
    const whole = await page(view.id, {});
    expect(whole.hasNext).toBeUndefined();
    expect(whole.webpages).toHaveLength(7);

    const first = await page(view.id, { per_page: 3 });
    expect(titlesOf(first)).toEqual(['Paged 00', 'Paged 01', 'Paged 02']);
    expect(first.hasNext).toBe(true);
    const third = await page(view.id, { per_page: 3, page: 3 });
    expect(titlesOf(third)).toEqual(['Paged 06']);
    expect(third.hasNext).toBe(false);
    const past = await page(view.id, { per_page: 3, page: 4 });
    expect(past).toEqual({ hasNext: false, webpages: [] });
  });

  it('the view’s limit applies first', async () => {
    const view = await ok(server, 'createView', {
      body: { title: 'Newest 4', sort: 4, limit: 4, enableLimit: true },
    });
    const first = await page(view.id, { per_page: 3 });
    expect(first.hasNext).toBe(true);
    const second = await page(view.id, { per_page: 3, page: 2 });
    expect(second.webpages).toHaveLength(1);
    expect(second.hasNext).toBe(false);
    expect([...titlesOf(first), ...titlesOf(second)]).toEqual(titlesOf(await page(view.id, {})));
  });

  it('each page has its own ETag', async () => {
    const view = await ok(server, 'createView', { body: { title: 'Tagged', sort: 1 } });
    const tagOf = async (query: Record<string, number>) => {
      const { url } = operationUrl(server, 'listViewWebpages', {
        params: { view_id: view.id },
        query,
      });
      const response = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
      return response.headers.get('etag');
    };
    const tags = [
      await tagOf({}),
      await tagOf({ per_page: 3 }),
      await tagOf({ per_page: 3, page: 2 }),
    ];
    expect(new Set(tags).size).toBe(3);
  });

  it('a random order is never paged: the whole view, without hasNext', async () => {
    const view = await ok(server, 'createView', { body: { title: 'Shuffled', sort: 0 } });
    const answer = await page(view.id, { per_page: 2, page: 2 });
    expect(answer.hasNext).toBeUndefined();
    expect(answer.webpages).toHaveLength(7);
  });

  it('a per_page outside 1–1000 is refused with a 400', async () => {
    const view = await ok(server, 'createView', { body: { title: 'Bounds', sort: 1 } });
    for (const perPage of [0, 1001]) {
      const answer = await call(server, 'listViewWebpages', {
        params: { view_id: view.id },
        query: { per_page: perPage },
      });
      expect(answer.status).toBe(400);
    }
  });
});
