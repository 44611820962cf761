// The test switch FOLIO_AS_HAMSTERBASE (e2e journeys of a client against a HamsterBase-like
// server): where Folio extends HamsterBase 0.9.2, the server answers as HamsterBase does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { call, fetchApiError, ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let hamster: TestServer;
let folio: TestServer;

beforeAll(async () => {
  hamster = await startTestServer({ asHamsterBase: true });
  folio = await startTestServer();
});

afterAll(async () => {
  await hamster?.close();
  await folio?.close();
});

const authorized = (server: TestServer): RequestInit => ({
  headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
});

describe('FOLIO_AS_HAMSTERBASE', () => {
  it('has no facets and no view preview (404), and a /version without Folio’s name', async () => {
    const facets = await fetchApiError(hamster, '/public/api/v1/facets', authorized(hamster));
    expect(facets.status).toBe(404);
    const preview = await fetchApiError(hamster, '/public/api/v1/views/preview', {
      ...authorized(hamster),
      method: 'POST',
      body: JSON.stringify({ title: 'Preview' }),
    });
    expect(preview.status).toBe(404);
    expect(await ok(hamster, 'getVersion')).toEqual({ version: '0.9.2' });

    expect((await ok(folio, 'getVersion')).name).toBe('folio');
    expect(await ok(folio, 'getFacets')).toEqual({ hosts: [], labels: [] });
  });

  it('refuses to remove a link (400, nothing saved); Folio’s server removes it', async () => {
    const file = makeHtml({ title: 'Linked' });
    const link = 'https://linked.example/a';
    const onHamster = await upload(hamster, file, 'html', { link });
    const refused = await call(hamster, 'patchWebpage', {
      params: { id: onHamster.id },
      body: { link: null, liked: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'link is invalid. link should start link http://www.example.com.',
    );
    expect(await ok(hamster, 'getWebpage', { params: { id: onHamster.id } })).toMatchObject({
      link,
      liked: false,
    });

    const onFolio = await upload(folio, file, 'html', { link });
    const removed = await ok(folio, 'patchWebpage', {
      params: { id: onFolio.id },
      body: { link: null },
    });
    expect(removed.link).toBeUndefined();
  });
});

describe('FOLIO_AS_HAMSTERBASE: a view’s webpages', () => {
  it('are never paged: per_page is ignored and no hasNext is sent', async () => {
    for (const n of [1, 2, 3]) {
      await upload(hamster, makeHtml({ title: `Unpaged ${n}` }), 'html');
    }
    const view = await ok(hamster, 'createView', { body: { title: 'All', sort: 1 } });
    const answer = await ok(hamster, 'listViewWebpages', {
      params: { view_id: view.id },
      query: { per_page: 1, page: 2 },
    });
    expect(answer.hasNext).toBeUndefined();
    // The whole view (the archive also holds the other tests' pages), though one was asked for.
    expect(
      answer.webpages.map((page) => page.title).filter((t) => t.startsWith('Unpaged')),
    ).toEqual(['Unpaged 1', 'Unpaged 2', 'Unpaged 3']);
  });
});

describe('FOLIO_AS_HAMSTERBASE: the list', () => {
  it('sends no X-Total-Count and ignores link=, as HamsterBase does', async () => {
    const one = await upload(hamster, makeHtml({ title: 'Counted' }), 'html', {
      link: 'https://count.example/a',
    });
    const answer = await call(hamster, 'listWebpages', { query: { link: one.link! } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-total-count')).toBeNull();
    const listed = (answer.body.data as { webpages: { id: string }[] }).webpages;
    expect(listed.length).toBeGreaterThan(1);

    const folioAnswer = await call(folio, 'listWebpages');
    expect(folioAnswer.headers.get('x-total-count')).not.toBeNull();
  });
});
