import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHtml, makeMhtml, makePng, makeWebarchive } from '../../test/support/archives.ts';
import { call, fails, ok, upload } from './support/api.ts';
import { readStoredOriginal, storedIds, storedOriginals } from './support/originals.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await server.close();
});

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const WEBPAGE_KEYS = [
  'createTime',
  'excerpt',
  'ext',
  'firstAddTime',
  'highlights',
  'id',
  'labels',
  'liked',
  'read',
  'size',
  'title',
];

describe('uploadWebpage', () => {
  it('stores an HTML page: id is the sha256 of the bytes, fields from the file', async () => {
    server.clock.set(Date.UTC(2026, 0, 2, 3, 4, 5));
    const file = makeHtml({ title: 'A plain page', description: 'What it is about' });
    const page = await upload(server, file, 'html');
    expect(page).toEqual({
      id: sha256(file),
      title: 'A plain page',
      excerpt: 'What it is about',
      firstAddTime: Date.UTC(2026, 0, 2, 3, 4, 5),
      createTime: Date.UTC(2026, 0, 2, 3, 4, 5),
      liked: false,
      read: false,
      size: file.length,
      ext: 'html',
      highlights: [],
      labels: [],
    });
    // No link: the key is absent, not null.
    expect(Object.keys(page).sort()).toEqual(WEBPAGE_KEYS);
  });

  it('stores an MHTML page with its link and capture date', async () => {
    const date = new Date('2026-03-04T05:06:07Z');
    const file = makeMhtml({
      html: '<html><head><title>Saved by Chrome</title></head><body><p>Body text</p></body></html>',
      url: 'https://news.example.org:8443/story?id=1',
      date,
    });
    const page = await upload(server, file, 'mhtml');
    expect(page.title).toBe('Saved by Chrome');
    expect(page.link).toBe('https://news.example.org:8443/story?id=1');
    expect(page.createTime).toBe(date.getTime());
    expect(page.ext).toBe('mhtml');
    expect(page.size).toBe(file.length);
  });

  it('stores a webarchive with its link', async () => {
    const file = makeWebarchive({
      html: '<html><head><title>From Safari</title></head><body><p>Hello</p></body></html>',
      url: 'https://safari.example.com/page',
    });
    const page = await upload(server, file, 'webarchive');
    expect(page.title).toBe('From Safari');
    expect(page.link).toBe('https://safari.example.com/page');
    expect(page.ext).toBe('webarchive');
  });

  it('lets the request override title and link of a new page', async () => {
    const file = makeHtml({ title: 'Original', singleFileUrl: 'https://file.example/a' });
    const page = await upload(server, file, 'html', {
      title: 'Given title',
      link: 'https://given.example/b',
    });
    expect(page.title).toBe('Given title');
    expect(page.link).toBe('https://given.example/b');
  });

  it('refuses a link that is not an absolute http(s) URL, storing nothing', async () => {
    for (const link of [
      'not a url',
      '/relative',
      'ftp://example.com/x',
      'javascript:alert(1)',
      '',
    ]) {
      const error = await fails(server, 'uploadWebpage', 400, {
        body: { content: makeHtml({ title: link }).toString('base64'), ext: 'html', link },
      });
      expect(error.message).toMatch(/^link is invalid/);
    }
    expect((await ok(server, 'listWebpages')).webpages).toEqual([]);
  });

  it('answers E0001 (HTTP 200) for files that are not the declared kind', async () => {
    const garbage = [
      { content: randomBytes(512), ext: 'html' },
      { content: makePng(4, 4), ext: 'html' },
      { content: Buffer.from('just some words, no markup at all'), ext: 'html' },
      { content: randomBytes(512), ext: 'mhtml' },
      { content: Buffer.from('plain text'), ext: 'mhtml' },
      { content: makeHtml({ title: 'html, not mhtml' }), ext: 'mhtml' },
      { content: randomBytes(512), ext: 'webarchive' },
      { content: makeHtml({ title: 'html, not a webarchive' }), ext: 'webarchive' },
      { content: makePng(2, 2), ext: 'webarchive' },
    ] as const;
    for (const { content, ext } of garbage) {
      const response = await call(server, 'uploadWebpage', {
        body: { content: content.toString('base64'), ext },
      });
      expect(response.status, `${ext}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(response.body.success).toBe(false);
      expect(response.body.error).toBe('E0001');
      expect(response.body.message).toMatch(/^parse error: /);
    }
    expect((await ok(server, 'listWebpages')).webpages).toEqual([]);
    expect(storedIds(server.dataDir)).toEqual([]);
  });

  it('answers E0001 for invalid base64', async () => {
    const valid = makeHtml({ title: 'b64' }).toString('base64');
    const invalid = [
      'not base64!',
      valid.slice(0, -1),
      `${valid}\n`,
      valid.replaceAll('+', '-').replaceAll('/', '_') + '-_',
      'QQ==QQ==',
      'QR==',
    ];
    for (const content of invalid) {
      const response = await call(server, 'uploadWebpage', { body: { content, ext: 'html' } });
      expect(response.status).toBe(200);
      expect(response.body.error, content).toBe('E0001');
    }
  });

  it('validates the request against the spec', async () => {
    const content = makeHtml().toString('base64');
    const cases: [unknown, string][] = [
      [{ content, ext: 'pdf' }, 'content or ext is invalid'],
      [{ content: '', ext: 'html' }, 'content or ext is invalid'],
      [{ ext: 'html' }, 'content or ext is invalid'],
      [{ content }, 'content or ext is invalid'],
      [{ content: 12, ext: 'html' }, 'content or ext is invalid'],
      [{ content, ext: 'html', title: 3 }, 'body/title must be a string'],
      [{ content, ext: 'html', extra: true }, 'body/extra is not allowed'],
      [[content], 'body must be an object'],
    ];
    for (const [body, message] of cases) {
      const error = await fails(server, 'uploadWebpage', 400, { body });
      expect(error).toEqual({ success: false, error: 'bad_request', message });
    }
  });

  it('returns the existing record for known bytes, ignoring title and link', async () => {
    const file = makeHtml({ title: 'First' });
    server.clock.set(1_700_000_000_000);
    const first = await upload(server, file, 'html');
    server.clock.set(1_800_000_000_000);
    const again = await upload(server, file, 'html', {
      title: 'Other',
      link: 'https://other.example/',
    });
    expect(again).toEqual(first);
    expect((await ok(server, 'listWebpages')).webpages).toHaveLength(1);
  });

  it('restores a deleted page with its likes, labels and highlights; firstAddTime kept', async () => {
    const file = makeHtml({ title: 'Comes back' });
    server.clock.set(1_700_000_000_000);
    const page = await upload(server, file, 'html');
    await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { liked: true, labels: ['keep', 'me'] },
    });
    const highlightId = await ok(server, 'createHighlight', {
      params: { id: page.id },
      body: { text: 'Comes', textBefore: '', textAfter: ' back' },
    });
    await ok(server, 'deleteWebpage', { params: { id: page.id } });
    await fails(server, 'getWebpage', 404, { params: { id: page.id } });

    server.clock.set(1_800_000_000_000);
    const restored = await upload(server, file, 'html', { title: 'ignored' });
    expect(restored.title).toBe('Comes back');
    expect(restored.liked).toBe(true);
    expect(restored.labels).toEqual(['keep', 'me']);
    expect(restored.highlights.map((h) => h.highlightId)).toEqual([highlightId]);
    expect(restored.firstAddTime).toBe(1_700_000_000_000);
    const listed = (await ok(server, 'listWebpages')).webpages;
    expect(listed.map((item) => item.id)).toEqual([page.id]);
    expect(listed[0]?.annotateCount).toBe(1);
  });

  it('keeps a small file in the database and a larger one in the blob store, each under its id', async () => {
    const small = makeHtml({ title: 'In the database' });
    // Past the database's limit (64 kB), under the size held in memory (1 MB), and past that.
    const larger = makeHtml({ title: 'On disk', body: `<p>${'larger '.repeat(12_000)}</p>` });
    const large = makeHtml({ title: 'Staged', body: `<p>${'large '.repeat(200_000)}</p>` });
    const pages = [];
    for (const file of [small, larger, large]) pages.push(await upload(server, file, 'html'));
    const [smallId, largerId, largeId] = pages.map((page) => page.id);
    const stored = storedOriginals(server.dataDir);
    expect(stored.inDatabase).toEqual([smallId]);
    expect(stored.files).toEqual([largerId, largeId].sort());
    expect(stored.temp).toEqual([]);
    for (const [index, file] of [small, larger, large].entries()) {
      const content = await ok(server, 'getWebpageContent', { params: { id: pages[index]!.id } });
      expect(Buffer.from(content, 'base64').equals(file)).toBe(true);
      expect(readStoredOriginal(server.dataDir, pages[index]!.id)?.equals(file)).toBe(true);
    }
  });

  it('makes a page searchable as soon as the upload is answered', async () => {
    const page = await upload(
      server,
      makeHtml({ title: 'Instant', body: '<p>zebrafish aquarium</p>' }),
      'html',
    );
    const results = await ok(server, 'searchWebpages', { query: { q: 'zebrafish' } });
    expect(results.webpages.map((result) => result.id)).toEqual([page.id]);
  });
});

describe('getWebpage and getWebpageContent', () => {
  it('returns the exact bytes, base64-encoded', async () => {
    const file = Buffer.concat([makeHtml({ title: 'Bytes' }), Buffer.from([0xe2, 0x82, 0xac])]);
    const page = await upload(server, file, 'html');
    const content = await ok(server, 'getWebpageContent', { params: { id: page.id } });
    expect(content).toBe(file.toString('base64'));
    expect(Buffer.from(content, 'base64').equals(file)).toBe(true);
  });

  it('returns the exact bytes of a binary webarchive', async () => {
    const file = makeWebarchive({
      html: '<html><title>bin</title><body><p>x</p></body></html>',
      url: 'https://bin.example/',
    });
    const page = await upload(server, file, 'webarchive');
    const content = await ok(server, 'getWebpageContent', { params: { id: page.id } });
    expect(Buffer.from(content, 'base64').equals(file)).toBe(true);
  });

  it('is 404 for unknown ids', async () => {
    const id = 'f'.repeat(64);
    const error = await fails(server, 'getWebpage', 404, { params: { id } });
    expect(error).toEqual({ success: false, error: 'not_found', message: 'webpage not found' });
    await fails(server, 'getWebpageContent', 404, { params: { id } });
    await fails(server, 'getWebpage', 404, { params: { id: 'not-even-hex' } });
  });
});

describe('patchWebpage', () => {
  it('changes only the given fields and reports the new state', async () => {
    const page = await upload(server, makeHtml({ title: 'Before', description: 'desc' }), 'html');
    const patched = await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { title: 'After', read: true },
    });
    expect(patched).toEqual({ ...page, title: 'After', read: true });
    const again = await ok(server, 'getWebpage', { params: { id: page.id } });
    expect(again).toEqual(patched);
    const excerpt = await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { excerpt: 'New excerpt', liked: true },
    });
    expect(excerpt).toEqual({ ...patched, excerpt: 'New excerpt', liked: true });
  });

  it('replaces labels: trimmed, deduplicated, order kept', async () => {
    const page = await upload(server, makeHtml({ title: 'Labels' }), 'html');
    const first = await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { labels: [' b ', 'a', 'b', 'c', 'a', '日本'] },
    });
    expect(first.labels).toEqual(['b', 'a', 'c', '日本']);
    const second = await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { labels: ['z'] },
    });
    expect(second.labels).toEqual(['z']);
    const cleared = await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { labels: [] },
    });
    expect(cleared.labels).toEqual([]);
  });

  it('refuses empty and blank labels, saving nothing', async () => {
    const page = await upload(server, makeHtml({ title: 'Blank' }), 'html');
    const empty = await fails(server, 'patchWebpage', 400, {
      params: { id: page.id },
      body: { title: 'x', labels: ['ok', ''] },
    });
    expect(empty.message).toBe('body/labels/1 must not be empty');
    const blank = await fails(server, 'patchWebpage', 400, {
      params: { id: page.id },
      body: { title: 'x', labels: ['  '] },
    });
    expect(blank.message).toBe('body/labels/0 must not be blank');
    expect((await ok(server, 'getWebpage', { params: { id: page.id } })).title).toBe('Blank');
  });

  it('sets, normalises and clears the link', async () => {
    const page = await upload(server, makeHtml({ title: 'Link' }), 'html');
    const set = await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { link: 'https://Example.COM:8080/path' },
    });
    expect(set.link).toBe('https://example.com:8080/path');
    const hosts = await ok(server, 'listWebpages', { query: { host: 'example.com:8080' } });
    expect(hosts.webpages.map((item) => item.id)).toEqual([page.id]);
    const cleared = await ok(server, 'patchWebpage', {
      params: { id: page.id },
      body: { link: null },
    });
    expect('link' in cleared).toBe(false);
    const listed = await ok(server, 'listWebpages');
    expect(listed.webpages[0]?.link).toBeNull();
  });

  it('refuses an invalid link and saves nothing of the patch', async () => {
    const page = await upload(server, makeHtml({ title: 'Keep' }), 'html');
    for (const link of ['', 'nope', 'mailto:a@b.c']) {
      const error = await fails(server, 'patchWebpage', 400, {
        params: { id: page.id },
        body: { title: 'Changed', liked: true, link },
      });
      expect(error.message).toMatch(/^link is invalid/);
    }
    const after = await ok(server, 'getWebpage', { params: { id: page.id } });
    expect(after).toEqual(page);
  });

  it('refuses wrong types, unknown fields and an empty patch', async () => {
    const page = await upload(server, makeHtml({ title: 'Strict' }), 'html');
    const cases: [unknown, string][] = [
      [{ liked: 'true' }, 'body/liked must be a boolean'],
      [{ read: 1 }, 'body/read must be a boolean'],
      [{ title: null }, 'body/title must be a string'],
      [{ labels: 'a' }, 'body/labels must be an array'],
      [{ labels: [1] }, 'body/labels/0 must be a string'],
      [{ link: 5 }, 'body/link must be a string or null'],
      [{ color: 'red' }, 'body/color is not allowed'],
      [{}, 'body must have at least one field'],
    ];
    for (const [body, message] of cases) {
      const error = await fails(server, 'patchWebpage', 400, { params: { id: page.id }, body });
      expect(error.message).toBe(message);
    }
    expect(await ok(server, 'getWebpage', { params: { id: page.id } })).toEqual(page);
  });

  it('is 404 for unknown and deleted pages', async () => {
    await fails(server, 'patchWebpage', 404, {
      params: { id: 'a'.repeat(64) },
      body: { read: true },
    });
    const page = await upload(server, makeHtml({ title: 'Gone' }), 'html');
    await ok(server, 'deleteWebpage', { params: { id: page.id } });
    await fails(server, 'patchWebpage', 404, { params: { id: page.id }, body: { read: true } });
  });
});

describe('deleteWebpage', () => {
  it('soft-deletes: answers the record, then 404 everywhere and gone from lists', async () => {
    const page = await upload(
      server,
      makeHtml({ title: 'Doomed', body: '<p>marmalade sandwich</p>' }),
      'html',
    );
    const view = await ok(server, 'createView', { body: { title: 'all' } });
    const deleted = await ok(server, 'deleteWebpage', { params: { id: page.id } });
    expect(deleted).toEqual(page);

    await fails(server, 'getWebpage', 404, { params: { id: page.id } });
    await fails(server, 'getWebpageContent', 404, { params: { id: page.id } });
    await fails(server, 'deleteWebpage', 404, { params: { id: page.id } });
    await fails(server, 'patchWebpage', 404, { params: { id: page.id }, body: { liked: true } });
    await fails(server, 'createHighlight', 404, {
      params: { id: page.id },
      body: { text: 'x', textBefore: '', textAfter: '' },
    });
    expect((await ok(server, 'listWebpages')).webpages).toEqual([]);
    expect(
      (await ok(server, 'listViewWebpages', { params: { view_id: view.id } })).webpages,
    ).toEqual([]);
    expect((await ok(server, 'searchWebpages', { query: { q: 'marmalade' } })).webpages).toEqual(
      [],
    );
    // The file stays (a re-upload restores the page).
    expect(storedIds(server.dataDir)).toEqual([page.id]);
  });
});
