import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { isTag, type Element } from 'domhandler';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fails, ok, rawGet, upload } from './support/api.ts';
import { fileFor, seed, type Seeded, type SeedPage } from './support/seed.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const at = (day: number) => Date.UTC(2026, 2, day, 12);

const PAGES: SeedPage[] = [
  {
    key: 'a',
    title: 'Alpha',
    ext: 'html',
    link: 'https://a.example/one?x=1&y=2',
    labels: ['news', 'to read'],
    addedAt: at(1),
  },
  { key: 'b', title: 'Beta', ext: 'mhtml', link: 'https://b.example/', addedAt: at(2) },
  { key: 'c', title: 'Gamma', ext: 'html', labels: ['news'], addedAt: at(3) },
  { key: 'd', title: 'Delta', ext: 'html', labels: ['news'], addedAt: at(4) },
];

interface ParsedFeed {
  version: string | undefined;
  title: string;
  description: string;
  items: {
    title: string;
    link: string;
    guid: string;
    pubDate: string;
    description: string;
    categories: string[];
  }[];
}

/** Parses an RSS 2.0 document (htmlparser2 in XML mode) into what the tests look at. */
function parseRss(xml: string): ParsedFeed {
  const document = parseDocument(xml, { xmlMode: true });
  const rss = DomUtils.findOne((element) => element.name === 'rss', document.children, false);
  if (rss === null) throw new Error('no <rss> at the top');
  const channel = DomUtils.getChildren(rss).find(
    (node): node is Element => isTag(node) && node.name === 'channel',
  );
  if (channel === undefined) throw new Error('no <channel> in <rss>');
  const child = (parent: Element, name: string) =>
    DomUtils.getChildren(parent).filter(
      (node): node is Element => isTag(node) && node.name === name,
    );
  const text = (parent: Element, name: string) => {
    const [element] = child(parent, name);
    return element === undefined ? '' : DomUtils.textContent(element);
  };
  return {
    version: rss.attribs.version,
    title: text(channel, 'title'),
    description: text(channel, 'description'),
    items: child(channel, 'item').map((item) => ({
      title: text(item, 'title'),
      link: text(item, 'link'),
      guid: text(item, 'guid'),
      pubDate: text(item, 'pubDate'),
      description: text(item, 'description'),
      categories: child(item, 'category').map((category) => DomUtils.textContent(category)),
    })),
  };
}

let server: TestServer;
let seeded: Seeded;

beforeAll(async () => {
  server = await startTestServer();
  seeded = await seed(server, PAGES);
});
afterAll(async () => {
  await server.close();
});

/** A view of the `news` pages, newest first; its feed turned on. */
async function newsView(extra: Record<string, unknown> = {}) {
  const view = await ok(server, 'createView', {
    body: {
      title: `News ${Math.random()}`,
      description: 'What I keep about the news',
      sort: 4,
      filters: [{ type: 2, key: 'label', operator: 0, rightOperand: ['news'] }],
      ...extra,
    },
  });
  const feed = await ok(server, 'enableViewFeed', { params: { view_id: view.id } });
  if (feed.path === undefined) throw new Error('no feed path');
  return { view, path: feed.path, key: new URL(feed.path, server.url).searchParams.get('key') };
}

describe('a view feed', () => {
  it('is off by default: no address, and the feed answers 404', async () => {
    const view = await ok(server, 'createView', { body: { title: 'Quiet' } });
    expect(await ok(server, 'getViewFeed', { params: { view_id: view.id } })).toEqual({
      enabled: false,
    });
    const answer = await rawGet(server, `/feeds/views/${view.id}/webpages`);
    expect(answer.status).toBe(404);
  });

  it('turned on: valid RSS 2.0 without a token, with the view’s pages in its order', async () => {
    const { view, path } = await newsView();
    expect(path).toMatch(/^\/feeds\/views\/[0-9a-f-]+\/webpages\?key=[A-Za-z0-9_-]{43}$/);
    const state = await ok(server, 'getViewFeed', { params: { view_id: view.id } });
    expect(state).toEqual({ enabled: true, path });

    const answer = await rawGet(server, path);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.headers['etag']).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(answer.body.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);

    const feed = parseRss(answer.body);
    expect(feed.version).toBe('2.0');
    expect(feed.title).toBe(view.title);
    expect(feed.description).toBe('What I keep about the news');
    expect(feed.items.map((item) => item.title)).toEqual(['Delta', 'Gamma', 'Alpha']);
    const alpha = feed.items[2];
    const alphaId = seeded.id('a');
    expect(alpha?.link).toBe(`${server.url}/webpages/${alphaId}`);
    expect(alpha?.guid).toBe(`${server.url}/webpages/${alphaId}`);
    expect(alpha?.pubDate).toBe(new Date(at(1)).toUTCString());
    expect(alpha?.categories).toEqual(['news', 'to read']);
    expect(alpha?.description).toContain(
      '<a href="https://a.example/one?x=1&amp;y=2">https://a.example/one?x=1&amp;y=2</a>',
    );
    // A page without a link has no "Original" line.
    expect(feed.items[1]?.description).not.toContain('Original');
  });

  it('follows the view’s limit and order', async () => {
    const { path } = await newsView({ sort: 3, enableLimit: true, limit: 2 });
    const feed = parseRss((await rawGet(server, path)).body);
    expect(feed.items.map((item) => item.title)).toEqual(['Alpha', 'Gamma']);
  });

  it('answers 304 to a reader that has the current answer, and 200 once the view changes', async () => {
    const { view, path } = await newsView();
    const first = await rawGet(server, path);
    const etag = String(first.headers['etag']);
    expect((await rawGet(server, path, { 'if-none-match': etag })).status).toBe(304);
    await ok(server, 'patchView', { params: { view_id: view.id }, body: { title: 'Renamed' } });
    const changed = await rawGet(server, path, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(parseRss(changed.body).title).toBe('Renamed');
  });

  it('keeps its secret when turned on again', async () => {
    const { view, path } = await newsView();
    const again = await ok(server, 'enableViewFeed', { params: { view_id: view.id } });
    expect(again.path).toBe(path);
  });
});

describe('who can read a feed', () => {
  const NOT_FOUND = { success: false, error: 'not_found', message: 'feed not found' };

  it('a wrong, missing, empty, repeated or over-long key: the same 404 as an unknown view', async () => {
    const { view, key } = await newsView();
    const base = `/feeds/views/${view.id}/webpages`;
    const wrongKey = `${key?.slice(0, -1)}${key?.endsWith('A') ? 'B' : 'A'}`;
    const targets = [
      base,
      `${base}?key=`,
      `${base}?key=${wrongKey}`,
      `${base}?key=${key}&key=${key}`,
      `${base}?key=${'x'.repeat(5000)}`,
      `${base}?KEY=${key}`,
      `/feeds/views/00000000-0000-4000-8000-000000000000/webpages?key=${key}`,
      `/feeds/views/${view.id}/highlights?key=${key}`,
      `/feeds/views/${view.id}?key=${key}`,
      `/feeds?key=${key}`,
    ];
    for (const target of targets) {
      const answer = await rawGet(server, target);
      expect(answer.status, target).toBe(404);
      expect(JSON.parse(answer.body), target).toEqual(NOT_FOUND);
    }
  });

  it('never takes the API token instead of the key, as a header or as the key', async () => {
    const { view } = await newsView();
    const base = `/feeds/views/${view.id}/webpages`;
    const bearer = { authorization: `Bearer ${server.token}` };
    for (const [target, headers] of [
      [base, bearer],
      [`${base}?key=${server.token}`, {}],
      [`${base}?key=${server.token}`, bearer],
      [`${base}?token=${server.token}`, bearer],
    ] as const) {
      const answer = await rawGet(server, target, headers);
      expect(answer.status, target).toBe(404);
      expect(JSON.parse(answer.body)).toEqual(NOT_FOUND);
    }
  });

  it('a key of one view does not open another', async () => {
    const first = await newsView();
    const second = await newsView();
    const answer = await rawGet(server, `/feeds/views/${second.view.id}/webpages?key=${first.key}`);
    expect(answer.status).toBe(404);
  });

  it('other spellings of the path: with the key the feed or a 400, without it never the feed', async () => {
    const { view, key } = await newsView();
    const id = view.id;
    const hex = (text: string) =>
      [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const spellings = [
      `/%66eeds/views/${id}/webpages`,
      `/feeds/%76iews/${id}/webpages`,
      `/feeds/views/${hex(id)}/webpages`,
      `/feeds/views/${id}/%77ebpages`,
      `/feeds/views/${id}/webpages/`,
      `//feeds/views/${id}/webpages`,
      `/feeds//views/${id}/webpages`,
      `/feeds/./views/${id}/webpages`,
      `/feeds/x/../views/${id}/webpages`,
      `/feeds/views/${id}/webpages%2f`,
      `/FEEDS/views/${id}/webpages`,
      `http://127.0.0.1/feeds/views/${id}/webpages`,
    ];
    for (const spelling of spellings) {
      const keyed = await rawGet(server, `${spelling}?key=${key}`);
      expect([200, 400, 404], spelling).toContain(keyed.status);
      // A 200 is the feed itself, or the app's page for a path the feeds do not own.
      if (keyed.status === 200 && String(keyed.headers['content-type']).startsWith('text/html')) {
        expect(keyed.body, spelling).not.toContain('<rss');
      } else if (keyed.status === 200) {
        expect(parseRss(keyed.body).items.length, spelling).toBe(3);
      }
      for (const withoutKey of [
        spelling,
        `${spelling}?key=wrong`,
        `${spelling}?%6bey=${server.token}`,
      ]) {
        const answer = await rawGet(server, withoutKey, {
          authorization: `Bearer ${server.token}`,
        });
        // Refused, or the app's page (a path the feeds do not own): never the feed.
        if (answer.status === 200) {
          expect(String(answer.headers['content-type']), withoutKey).toMatch(/^text\/html/);
        }
        expect(answer.body, withoutKey).not.toContain('<rss');
        expect(answer.body, withoutKey).not.toContain('Gamma');
      }
    }
    // The key may be percent-encoded like any query value.
    const encoded = await rawGet(server, `/feeds/views/${id}/webpages?key=${hex(key ?? '')}`);
    expect(encoded.status).toBe(200);
  });

  it('rotate: the old address answers 404, the new one the feed', async () => {
    const { view, path } = await newsView();
    const rotated = await ok(server, 'rotateViewFeed', { params: { view_id: view.id } });
    expect(rotated.enabled).toBe(true);
    expect(rotated.path).not.toBe(path);
    expect((await rawGet(server, path)).status).toBe(404);
    expect((await rawGet(server, rotated.path ?? '')).status).toBe(200);
  });

  it('turned off: 404, and turning it on again makes a new secret', async () => {
    const { view, path } = await newsView();
    expect(await ok(server, 'disableViewFeed', { params: { view_id: view.id } })).toEqual({
      enabled: false,
    });
    expect((await rawGet(server, path)).status).toBe(404);
    expect(await ok(server, 'getViewFeed', { params: { view_id: view.id } })).toEqual({
      enabled: false,
    });
    const again = await ok(server, 'enableViewFeed', { params: { view_id: view.id } });
    expect(again.path).not.toBe(path);
  });

  it('the feed operations need the token', async () => {
    const { view } = await newsView();
    for (const operation of [
      'getViewFeed',
      'enableViewFeed',
      'rotateViewFeed',
      'disableViewFeed',
    ] as const) {
      await fails(server, operation, 401, { params: { view_id: view.id }, token: null });
    }
    expect((await ok(server, 'getViewFeed', { params: { view_id: view.id } })).enabled).toBe(true);
  });
});

describe('what a feed no longer shows', () => {
  let other: TestServer;
  afterEach(async () => {
    await other.close();
  });

  it('a deleted view: 404, its secret is gone from the database, no operation revives it', async () => {
    other = await startTestServer();
    const view = await ok(other, 'createView', { body: { title: 'Doomed' } });
    const { path } = await ok(other, 'enableViewFeed', { params: { view_id: view.id } });
    expect((await rawGet(other, path ?? '')).status).toBe(200);
    await ok(other, 'deleteView', { params: { view_id: view.id } });
    const answer = await rawGet(other, path ?? '');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual(NOT_FOUND_BODY);
    for (const operation of [
      'getViewFeed',
      'enableViewFeed',
      'rotateViewFeed',
      'disableViewFeed',
    ] as const) {
      await fails(other, operation, 404, { params: { view_id: view.id } });
    }
    const db = new Database(join(other.dataDir, 'folio.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM view_feeds').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('a deleted page is not in the feed', async () => {
    other = await startTestServer();
    const kept = await upload(other, fileFor({ key: 'k', title: 'Kept', ext: 'html' }), 'html');
    const gone = await upload(other, fileFor({ key: 'g', title: 'Gone', ext: 'html' }), 'html');
    const view = await ok(other, 'createView', { body: { title: 'All' } });
    const { path } = await ok(other, 'enableViewFeed', { params: { view_id: view.id } });
    expect(parseRss((await rawGet(other, path ?? '')).body).items).toHaveLength(2);
    await ok(other, 'deleteWebpage', { params: { id: gone.id } });
    const feed = parseRss((await rawGet(other, path ?? '')).body);
    expect(feed.items.map((item) => item.guid)).toEqual([`${other.url}/webpages/${kept.id}`]);
  });

  it('titles with CDATA ends and control characters stay one well-formed item', async () => {
    other = await startTestServer();
    const title = 'a ]]> b ]]><x>c</x> \u0001\u0008 d';
    await upload(other, fileFor({ key: 'h', title: 'x', ext: 'html' }), 'html', { title });
    const view = await ok(other, 'createView', {
      body: { title: 'Odd ]]> \u0002 view', description: '<b>bold</b> & \u000b' },
    });
    const { path } = await ok(other, 'enableViewFeed', { params: { view_id: view.id } });
    const body = (await rawGet(other, path ?? '')).body;
    // eslint-disable-next-line no-control-regex
    expect(body).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const feed = parseRss(body);
    expect(feed.title).toBe('Odd ]]>  view');
    expect(feed.description).toBe('<b>bold</b> & ');
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]?.title).toBe('a ]]\u200b> b ]]\u200b><x>c</x>  d');
  });

  it('a server answering as HamsterBase has no feed operations and no feeds', async () => {
    other = await startTestServer({ asHamsterBase: true });
    const view = await ok(other, 'createView', { body: { title: 'Plain' } });
    await fails(other, 'getViewFeed', 404, { params: { view_id: view.id } });
    await fails(other, 'enableViewFeed', 404, { params: { view_id: view.id } });
    expect((await rawGet(other, `/feeds/views/${view.id}/webpages?key=x`)).status).toBe(404);
  });
});

const NOT_FOUND_BODY = { success: false, error: 'not_found', message: 'feed not found' };
