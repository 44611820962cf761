// Metadata read from the saved file itself, uploaded over HTTP: each saver's own record of the
// page's address and capture time (SingleFile, Chrome "Save as", Chrome MHTML, Safari), then
// what the page says about itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHtml, makeMhtml, makeWebarchive } from '../../test/support/archives.ts';
import { ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
const UPLOADED_AT = Date.UTC(2026, 10, 25, 12, 0, 0);

beforeEach(async () => {
  server = await startTestServer();
  server.clock.set(UPLOADED_AT);
});

afterEach(async () => {
  await server.close();
});

/** The ids of the live webpages whose link has this host (the list's `host` filter). */
async function idsWithHost(host: string): Promise<string[]> {
  const list = await ok(server, 'listWebpages', { query: { host } });
  return list.webpages.map((page) => page.id);
}

describe('the saver’s own record', () => {
  it("SingleFile: the header comment as <html>'s first child gives link, host and capture time", async () => {
    const saved = new Date(Date.UTC(2026, 1, 3, 4, 5, 6));
    const file = makeHtml({
      title: 'Saved by SingleFile',
      singleFileUrl: 'https://essays.example.org:8443/2026/on-archives?x=1',
      savedDate: saved,
      extraHead: '<link rel="canonical" href="https://canonical.example/">',
    });
    expect(file.toString()).toContain('<html lang="en"><!--\n Page saved with SingleFile');
    const page = await upload(server, file, 'html');
    expect(page.link).toBe('https://essays.example.org:8443/2026/on-archives?x=1');
    expect(page.createTime).toBe(saved.getTime());
    expect(page.firstAddTime).toBe(UPLOADED_AT);
    expect(await idsWithHost('essays.example.org:8443')).toEqual([page.id]);
  });

  it('SingleFile without a saved date (its removeSavedDate option): link, upload time', async () => {
    const file = makeHtml({ title: 'No date', singleFileUrl: 'https://nodate.example/' });
    const page = await upload(server, file, 'html');
    expect(page.link).toBe('https://nodate.example/');
    expect(page.createTime).toBe(UPLOADED_AT);
    expect(await idsWithHost('nodate.example')).toEqual([page.id]);
  });

  it("Chrome's and IE's saved from url comment gives the link and host", async () => {
    const file = makeHtml({
      title: 'Saved by Chrome',
      savedFromUrl: 'https://chrome.example.com/article/7',
      extraHead: '<meta property="og:url" content="https://og.example/">',
    });
    const page = await upload(server, file, 'html');
    expect(page.link).toBe('https://chrome.example.com/article/7');
    expect(page.createTime).toBe(UPLOADED_AT); // Chrome records no date in the file
    expect(await idsWithHost('chrome.example.com')).toEqual([page.id]);
  });

  it('MHTML: the Date header is the capture time, Snapshot-Content-Location the link', async () => {
    const date = new Date('2026-03-04T05:06:07Z');
    const file = makeMhtml({
      html: '<html><head><title>MHTML</title><link rel="canonical" href="https://c.example/"></head><body><p>x</p></body></html>',
      url: 'https://mhtml.example.net/story',
      date,
    });
    const page = await upload(server, file, 'mhtml');
    expect(page.link).toBe('https://mhtml.example.net/story');
    expect(page.createTime).toBe(date.getTime());
    expect(await idsWithHost('mhtml.example.net')).toEqual([page.id]);
  });

  it("MHTML without Snapshot-Content-Location: the first part's Content-Location", async () => {
    const date = new Date('2026-05-06T07:08:09Z');
    const source = makeMhtml({
      html: '<html><head><title>No snapshot</title></head><body><p>x</p></body></html>',
      url: 'https://part.example.org/first',
      date,
    }).toString('latin1');
    const file = Buffer.from(source.replace(/^Snapshot-Content-Location: .*\r\n/m, ''), 'latin1');
    expect(file.toString('latin1')).not.toContain('Snapshot-Content-Location');
    const page = await upload(server, file, 'mhtml');
    expect(page.link).toBe('https://part.example.org/first');
    expect(page.createTime).toBe(date.getTime());
    expect(await idsWithHost('part.example.org')).toEqual([page.id]);
  });

  it("webarchive: the main resource's URL is the link", async () => {
    const file = makeWebarchive({
      html: '<html><head><title>Safari</title><meta property="og:url" content="https://og.example/"></head><body><p>x</p></body></html>',
      url: 'https://safari.example.com/page',
    });
    const page = await upload(server, file, 'webarchive');
    expect(page.link).toBe('https://safari.example.com/page');
    expect(page.createTime).toBe(UPLOADED_AT);
    expect(await idsWithHost('safari.example.com')).toEqual([page.id]);
  });
});

describe('fallbacks', () => {
  it('link: rel=canonical, then og:url', async () => {
    const canonical = await upload(
      server,
      makeHtml({
        title: 'Canonical',
        extraHead:
          '<link rel="canonical" href="https://canon.example/a"><meta property="og:url" content="https://og.example/a">',
      }),
      'html',
    );
    expect(canonical.link).toBe('https://canon.example/a');
    const og = await upload(
      server,
      makeHtml({
        title: 'OG',
        extraHead: '<meta property="og:url" content="https://og.example/b">',
      }),
      'html',
    );
    expect(og.link).toBe('https://og.example/b');
    expect(await idsWithHost('og.example')).toEqual([og.id]);
  });

  it('title: <title>, then og:title, then the first <h1>', async () => {
    const titled = await upload(
      server,
      makeHtml({
        title: 'The title',
        extraHead: '<meta property="og:title" content="OG title">',
        body: '<h1>Heading</h1>',
      }),
      'html',
    );
    expect(titled.title).toBe('The title');
    const og = await upload(
      server,
      makeHtml({ extraHead: '<meta property="og:title" content="OG title">', body: '<h1>H</h1>' }),
      'html',
    );
    expect(og.title).toBe('OG title');
    const h1 = await upload(
      server,
      makeHtml({ body: '<p>intro</p><h1>First  <b>heading</b></h1><h1>Second</h1>' }),
      'html',
    );
    expect(h1.title).toBe('First heading');
  });
});
