import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { parseWebpage } from '../../server/src/parse/parse-webpage.ts';
import { parseMhtml } from '../../shared/formats/mhtml.ts';
import { parseWebarchive } from '../../shared/formats/webarchive.ts';
import { encodeQuotedPrintable, makeHtml, makeMhtml, makePng, makeWebarchive } from './archives.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('makeHtml', () => {
  it('builds a page the server parser reads back', () => {
    const saved = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    const page = parseWebpage(
      makeHtml({
        title: 'A <fixture> & co',
        description: 'Described "here"',
        body: '<p>Body text</p>',
        singleFileUrl: 'https://example.com/page',
        savedDate: saved,
        extraHead: '<meta property="og:title" content="OG">',
      }),
      'html',
    );
    expect(page).toEqual({
      title: 'A <fixture> & co',
      excerpt: 'Described "here"',
      link: 'https://example.com/page',
      createTime: saved.getTime(),
      text: 'Body text',
    });
  });

  it("writes SingleFile's header comment as <html>'s first child, as SingleFile does", () => {
    const source = makeHtml({
      singleFileUrl: 'https://example.com/',
      savedDate: 'Sat Nov 21 2026',
    }).toString();
    expect(source).toMatch(
      /^<!DOCTYPE html>\n<html lang="en"><!--\n Page saved with SingleFile \n url: https:\/\/example\.com\/ \n saved date: Sat Nov 21 2026\n--><head>/,
    );
  });

  it("writes Chrome's mark of the web between the doctype and <html>", () => {
    const url = 'https://example.com/a/long/enough/path?q=1';
    const source = makeHtml({ savedFromUrl: url }).toString();
    expect(source).toMatch(
      /^<!DOCTYPE html>\n<!-- saved from url=\(0042\)https:\/\/example\.com\/a\/long\/enough\/path\?q=1 -->\n<html/,
    );
  });
});

describe('makeMhtml', () => {
  const resources = [
    {
      url: 'https://example.com/a.png',
      contentType: 'image/png',
      body: makePng(3, 2, [9, 8, 7]),
      contentId: 'img-1@example',
    },
    {
      url: 'https://example.com/site.css',
      contentType: 'text/css',
      body: 'p::before { content: "→"; }\n',
    },
    {
      url: 'https://example.com/data.bin',
      contentType: 'application/octet-stream',
      body: Buffer.from([0, 61, 255]),
      encoding: 'quoted-printable' as const,
    },
  ];

  it('produces Chromium-shaped headers', () => {
    const source = makeMhtml({
      html: '<title>Grüße</title>',
      url: 'https://example.com/',
      date: new Date(Date.UTC(2026, 10, 21, 10, 11, 12)),
      boundary: '----MultipartBoundary--fixed----',
    }).toString('latin1');
    expect(source.split('\r\n').slice(0, 11)).toEqual([
      'From: <Saved by Blink>',
      'Snapshot-Content-Location: https://example.com/',
      'Subject: =?utf-8?Q?Gr=C3=BC=C3=9Fe?=',
      'Date: Sat, 21 Nov 2026 10:11:12 GMT',
      'MIME-Version: 1.0',
      'Content-Type: multipart/related;',
      '\ttype="text/html";',
      '\tboundary="----MultipartBoundary--fixed----"',
      '',
      '',
      '------MultipartBoundary--fixed----',
    ]);
    expect(source.endsWith('------MultipartBoundary--fixed------\r\n')).toBe(true);
  });

  it('round-trips through parseMhtml', () => {
    const html = `<html><head><title>${'Long title '.repeat(10)}</title></head><body>${'x=y '.repeat(100)}é</body></html>\n<p>second line</p>`;
    const archive = parseMhtml(makeMhtml({ html, url: 'https://example.com/', resources }));
    expect(text(archive.main.body)).toBe(html.replace('\n', '\r\n'));
    expect(archive.subject).toBe('Long title '.repeat(10).trim());
    expect(archive.parts).toHaveLength(4);
    expect(Buffer.from(archive.parts[1]!.body).equals(resources[0]!.body as Buffer)).toBe(true);
    expect(archive.parts[1]!.contentId).toBe('img-1@example');
    expect(text(archive.parts[2]!.body)).toBe('p::before { content: "→"; }\r\n');
    expect([...archive.parts[3]!.body]).toEqual([0, 61, 255]);
  });

  it('keeps quoted-printable lines within 76 characters', () => {
    const encoded = encodeQuotedPrintable(
      Buffer.from(`${'é'.repeat(200)} ${'a'.repeat(300)} \nend`),
    );
    for (const line of encoded.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    expect(encoded).toContain('=20\r\nend'); // trailing space before a hard break is encoded
  });

  it('takes the subject from the decoded <title> by default', () => {
    const latin = Buffer.from('<title> Caf\u00e9 &amp; &#x1F439;\n bar </title>', 'latin1');
    expect(parseMhtml(makeMhtml({ html: latin, charset: 'windows-1252' })).subject).toBe(
      'Café & 🐹 bar',
    );
    expect(parseMhtml(makeMhtml({ html: '<p>no title</p>' })).subject).toBeNull();
  });

  it('encodes a non-ASCII subject that parseMhtml decodes', () => {
    const subject = 'Ünïcödé 日本語 '.repeat(8).trim();
    expect(parseMhtml(makeMhtml({ html: '<p>x</p>', subject })).subject).toBe(subject);
  });

  it('supports a base64 HTML part and a declared charset', () => {
    const archive = parseMhtml(
      makeMhtml({ html: '<p>Café</p>', htmlEncoding: 'base64', charset: 'iso-8859-1' }),
    );
    expect(archive.main.charset).toBe('iso-8859-1');
    expect([...archive.main.body]).toEqual([...Buffer.from('<p>Café</p>', 'latin1')]);
  });

  it('parses with parseWebpage', () => {
    const page = parseWebpage(
      makeMhtml({ html: makeHtml({ title: 'T' }), url: 'https://example.com/x' }),
      'mhtml',
    );
    expect(page.title).toBe('T');
    expect(page.link).toBe('https://example.com/x');
  });
});

describe('makeWebarchive', () => {
  it('round-trips through parseWebarchive', () => {
    const png = makePng(1, 1, [255, 255, 255]);
    const archive = parseWebarchive(
      makeWebarchive({
        html: '<title>Safari</title>',
        url: 'https://example.com/',
        subresources: [{ url: 'https://example.com/a.png', mimeType: 'image/png', data: png }],
        subframes: [{ html: '<p>frame</p>', url: 'https://frames.example/', frameName: 'f1' }],
      }),
    );
    expect(archive.mainResource).toMatchObject({
      url: 'https://example.com/',
      mimeType: 'text/html',
      textEncoding: 'UTF-8',
      frameName: '',
    });
    expect(text(archive.mainResource.data)).toBe('<title>Safari</title>');
    expect(Buffer.from(archive.subresources[0]!.data).equals(png)).toBe(true);
    expect(archive.subframeArchives[0]!.mainResource.frameName).toBe('f1');
    expect(text(archive.subframeArchives[0]!.mainResource.data)).toBe('<p>frame</p>');
  });

  it('parses with parseWebpage', () => {
    const page = parseWebpage(
      makeWebarchive({ html: makeHtml({ title: 'W' }), url: 'https://example.com/w' }),
      'webarchive',
    );
    expect(page.title).toBe('W');
    expect(page.link).toBe('https://example.com/w');
  });
});

describe('makePng', () => {
  it('writes a valid PNG with the requested size and colour', () => {
    const png = makePng(3, 2, [10, 20, 30]);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(3);
    expect(png.readUInt32BE(20)).toBe(2);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('latin1', 37, 41)).toBe('IDAT');
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect([...raw]).toEqual([
      0, 10, 20, 30, 10, 20, 30, 10, 20, 30, 0, 10, 20, 30, 10, 20, 30, 10, 20, 30,
    ]);
    expect(png.toString('latin1', png.length - 8, png.length - 4)).toBe('IEND');
  });
});
