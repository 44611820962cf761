// Folio's to-save extension: links from a bookmarks file, kept as a list to save by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { call, fails, ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the list to save', () => {
  it('adds links once (labels, add time), lists them newest first, marks the saved ones, deletes', async () => {
    server = await startTestServer();
    const added = await ok(server, 'addToSave', {
      body: {
        links: [
          {
            url: 'https://example.com/a',
            title: 'A',
            labels: ['Bar', 'Bar', 'ml'],
            addTime: 1695000000000,
          },
          { url: 'https://example.com/b' },
        ],
      },
    });
    expect(added).toEqual({ added: 2, existing: 0 });
    expect(
      await ok(server, 'addToSave', { body: { links: [{ url: 'https://example.com/a' }] } }),
    ).toEqual({ added: 0, existing: 1 });

    await upload(server, makeHtml({ title: 'Saved A' }), 'html', { link: 'https://example.com/a' });
    const { links } = await ok(server, 'listToSave');
    expect(
      links.map((link) => [link.url, link.title, link.labels, link.addTime, link.saved]),
    ).toEqual([
      ['https://example.com/b', '', [], null, false],
      ['https://example.com/a', 'A', ['Bar', 'ml'], 1695000000000, true],
    ]);

    const removed = await ok(server, 'deleteToSave', { params: { link_id: String(links[1]!.id) } });
    expect(removed.url).toBe('https://example.com/a');
    expect((await ok(server, 'listToSave')).links).toHaveLength(1);
    await fails(server, 'deleteToSave', 404, { params: { link_id: String(links[1]!.id) } });
  });

  it('refuses links that are not http(s) and bodies past their bounds, storing nothing', async () => {
    server = await startTestServer();
    const bad = await fails(server, 'addToSave', 400, {
      body: { links: [{ url: 'https://ok.test/' }, { url: 'javascript:alert(1)' }] },
    });
    expect(bad.message).toBe('body/links/1/url must be an http or https link');
    await fails(server, 'addToSave', 400, {
      body: { links: Array.from({ length: 1001 }, (_, i) => ({ url: `https://x.test/${i}` })) },
    });
    await fails(server, 'addToSave', 400, {
      body: { links: [{ url: 'https://x.test/', extra: 1 }] },
    });
    expect((await ok(server, 'listToSave')).links).toEqual([]);
  });

  it('is not there on a server that answers as HamsterBase', async () => {
    server = await startTestServer({ asHamsterBase: true });
    expect((await call(server, 'listToSave')).status).toBe(404);
    expect((await call(server, 'addToSave', { body: { links: [] } })).status).toBe(404);
  });
});
