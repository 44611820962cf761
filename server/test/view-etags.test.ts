// A view's webpages carry an ETag: a client that has the answer gets a 304 (the view is not read
// again) until anything in the archive changes, the view is edited, or the server restarts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, operationUrl, upload } from './support/api.ts';
import { fileFor } from './support/seed.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let pageId: string;

beforeAll(async () => {
  server = await startTestServer();
  pageId = (await upload(server, fileFor({ key: 'e', title: 'Tagged', ext: 'html' }), 'html')).id;
});

afterAll(async () => {
  await server.close();
});

async function viewWebpages(target: TestServer, viewId: string, etag?: string) {
  const { url } = operationUrl(target, 'listViewWebpages', { params: { view_id: viewId } });
  const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
  if (etag !== undefined) headers['if-none-match'] = etag;
  const response = await fetch(url, { headers });
  const body = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), response, body };
}

async function newView(sort = 4) {
  return ok(server, 'createView', { body: { title: `sorted ${sort}`, sort } });
}

describe('ETags of a view’s webpages', () => {
  it('answer 304 with no body while nothing changed, and 200 with a new tag after a write', async () => {
    const view = await newView();
    const first = await viewWebpages(server, view.id);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    expect(first.response.headers.get('cache-control')).toBe('private, no-cache');
    expect(JSON.parse(first.body).data.webpages.map((page: { id: string }) => page.id)).toEqual([
      pageId,
    ]);

    const again = await viewWebpages(server, view.id, first.etag ?? '');
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.etag).toBe(first.etag);
    // A list of tags, weak or not, as browsers send them.
    expect((await viewWebpages(server, view.id, `"other", W/${first.etag}`)).status).toBe(304);
    expect((await viewWebpages(server, view.id, '"other"')).status).toBe(200);

    await ok(server, 'patchWebpage', { params: { id: pageId }, body: { title: 'Renamed' } });
    const changed = await viewWebpages(server, view.id, first.etag ?? '');
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    expect(JSON.parse(changed.body).data.webpages[0].title).toBe('Renamed');
  });

  it('change when the view is edited, and differ between views', async () => {
    const view = await newView();
    const other = await newView(3);
    const before = await viewWebpages(server, view.id);
    expect((await viewWebpages(server, other.id)).etag).not.toBe(before.etag);
    await ok(server, 'patchView', { params: { view_id: view.id }, body: { sort: 1 } });
    const after = await viewWebpages(server, view.id, before.etag ?? '');
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.etag);
  });

  it('are not given for a random order', async () => {
    const view = await newView(0);
    const answer = await viewWebpages(server, view.id);
    expect(answer.status).toBe(200);
    expect(answer.etag).toBeNull();
    expect((await viewWebpages(server, view.id, '*')).status).toBe(200);
  });

  it('do not outlive the server', async () => {
    const view = await newView();
    const before = await viewWebpages(server, view.id);
    const restarted = await startTestServer({ dataDir: server.dataDir, keepDataDir: true });
    try {
      const after = await viewWebpages(restarted, view.id, before.etag ?? '');
      expect(after.status).toBe(200);
      expect(after.etag).not.toBe(before.etag);
    } finally {
      await restarted.close();
    }
  });
});
