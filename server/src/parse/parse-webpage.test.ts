import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeHtml, makeMhtml, makePng, makeWebarchive } from '../../../test/support/archives.ts';
import { readMhtmlStructure } from '../../../shared/formats/mhtml.ts';
import { readMhtmlIndex } from '../../../shared/formats/mhtml-index.ts';
import { MAX_TITLE_LENGTH } from '../../../shared/webpage-fields.ts';
import { ParseError } from './parse-error.ts';
import { MAX_TEXT_LENGTH, excerptOf, parseWebpage, type WebpageExt } from './parse-webpage.ts';

const html = (source: string) => Buffer.from(source, 'utf8');

function parseError(run: () => unknown): ParseError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ParseError);
    return error as ParseError;
  }
  throw new Error('expected a ParseError');
}

describe('html: title', () => {
  it('takes <title> with entities decoded and whitespace collapsed', () => {
    const page = parseWebpage(
      html(
        '<html><head><title>\n  Tom &amp; Jerry\n\t&mdash;  cartoons &#x1F439; </title></head></html>',
      ),
      'html',
    );
    expect(page.title).toBe('Tom & Jerry — cartoons 🐹');
  });

  it('uses the first <title> and ignores titles inside SVG', () => {
    const page = parseWebpage(
      html(
        '<html><body><svg><title>icon</title></svg><title>Real</title><title>Second</title></body></html>',
      ),
      'html',
    );
    expect(page.title).toBe('Real');
  });

  it('falls back to og:title, then to an empty string', () => {
    const og = makeHtml({ extraHead: '<meta property="og:title" content=" Open  Graph ">' });
    expect(parseWebpage(og, 'html').title).toBe('Open Graph');
    const empty = makeHtml({
      extraHead: '<title>  </title><meta property="og:title" content="OG">',
    });
    expect(parseWebpage(empty, 'html').title).toBe('OG');
    expect(parseWebpage(makeHtml({ body: '<p>x</p>' }), 'html').title).toBe('');
  });

  it('falls back to the first <h1> after <title> and og:title', () => {
    const h1 = makeHtml({
      body: '<h1> First\n <em>heading</em><script>x()</script></h1><h1>Second</h1>',
    });
    expect(parseWebpage(h1, 'html').title).toBe('First heading');
    const og = makeHtml({
      extraHead: '<meta property="og:title" content="OG">',
      body: '<h1>Heading</h1>',
    });
    expect(parseWebpage(og, 'html').title).toBe('OG');
    const titled = makeHtml({ title: 'Title', body: '<h1>Heading</h1>' });
    expect(parseWebpage(titled, 'html').title).toBe('Title');
    const long = makeHtml({ body: `<h1>${'word '.repeat(10_000)}</h1>` });
    expect(parseWebpage(long, 'html').title.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
  });
});

describe('html: excerpt', () => {
  it('takes <meta name="description">', () => {
    const page = parseWebpage(
      makeHtml({ title: 't', description: 'A  short\nsummary & more' }),
      'html',
    );
    expect(page.excerpt).toBe('A short summary & more');
  });

  it('falls back to og:description', () => {
    const page = parseWebpage(
      makeHtml({ extraHead: '<meta property="og:description" content="From OG">' }),
      'html',
    );
    expect(page.excerpt).toBe('From OG');
  });

  it('falls back to the start of the text, cut at a word boundary', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const page = parseWebpage(makeHtml({ body: `<p>${words}</p>` }), 'html');
    expect(page.excerpt.endsWith('…')).toBe(true);
    expect(page.excerpt.length).toBeLessThanOrEqual(201);
    expect(page.excerpt.length).toBeGreaterThan(150);
    const kept = page.excerpt.slice(0, -1);
    expect(words.startsWith(kept)).toBe(true);
    expect(words[kept.length]).toBe(' ');
  });

  it('keeps a short text whole', () => {
    expect(parseWebpage(makeHtml({ body: '<p>Short text.</p>' }), 'html').excerpt).toBe(
      'Short text.',
    );
  });

  it('never splits a surrogate pair', () => {
    expect(excerptOf('🐹'.repeat(150))).toBe(`${'🐹'.repeat(100)}…`);
  });
});

describe('html: text', () => {
  it('skips script, style, noscript, template and svg, and separates blocks', () => {
    const page = parseWebpage(
      makeHtml({
        title: 'Ignored title',
        body: `<script>var hidden = "script";</script><style>.x{}</style>
<noscript><p>no script</p></noscript><template><p>template</p></template>
<svg><text>svg text</text></svg>
<h1>Heading</h1><p>First&nbsp;para with <b>bold</b>text</p><div>Second</div><ul><li>one</li><li>two</li></ul>
line<br>break &amp; &lt;tag&gt;`,
      }),
      'html',
    );
    expect(page.text).toBe('Heading First para with boldtext Second one two line break & <tag>');
  });

  it('caps the text at 2,000,000 characters', () => {
    const paragraph = `<p>${'lorem ipsum '.repeat(1000)}</p>\n`;
    const page = parseWebpage(makeHtml({ body: paragraph.repeat(250) }), 'html');
    expect(page.text.length).toBe(MAX_TEXT_LENGTH);
  });

  it('still reads head metadata of a page whose text is over the cap', () => {
    const page = parseWebpage(
      makeHtml({
        title: 'Big',
        description: 'desc',
        body: `<p>${'x '.repeat(MAX_TEXT_LENGTH)}</p><p>tail</p>`,
      }),
      'html',
    );
    expect(page.title).toBe('Big');
    expect(page.excerpt).toBe('desc');
    expect(page.text.endsWith('tail')).toBe(false);
  });
});

describe('html: link', () => {
  it('reads the SingleFile header comment', () => {
    const page = parseWebpage(
      makeHtml({
        title: 't',
        singleFileUrl: 'https://example.com/a?b=1#c',
        extraHead: '<link rel="canonical" href="https://other.example/">',
      }),
      'html',
    );
    expect(page.link).toBe('https://example.com/a?b=1#c');
  });

  it("reads SingleFile's header where SingleFile writes it: <html>'s first child", () => {
    const page = parseWebpage(
      html(
        '<!DOCTYPE html> <html lang="en"><!--\n Page saved with SingleFile \n url: https://sf.example/p \n saved date: Sat Nov 21 2026 10:11:12 GMT+0000 (Coordinated Universal Time)\n--><head><title>t</title></head><body></body></html>',
      ),
      'html',
    );
    expect(page.link).toBe('https://sf.example/p');
    expect(page.createTime).toBe(Date.UTC(2026, 10, 21, 10, 11, 12));
  });

  it('reads the SingleFile header inside <head> too, but not a comment without its header', () => {
    const inHead = html(
      '<html><head><meta charset="utf-8"><!--\n Page saved with SingleFile \n url: https://sf.example/h \n--><title>t</title></head><body></body></html>',
    );
    expect(parseWebpage(inHead, 'html').link).toBe('https://sf.example/h');
    const foreign = html(
      '<html><!--\n url: https://not-a-saver.example/ \n--><head><title>t</title></head><body></body></html>',
    );
    expect(parseWebpage(foreign, 'html').link).toBeNull();
  });

  it("reads Chrome's and IE's saved from url comment before or after <html>", () => {
    const url = 'https://chrome.example/a/page?x=1';
    expect(parseWebpage(makeHtml({ savedFromUrl: url }), 'html').link).toBe(url);
    const ie = html(
      '<!-- saved from url=(0022)http://ie.example.com/ -->\r\n<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><HTML><HEAD><TITLE>t</TITLE></HEAD><BODY></BODY></HTML>',
    );
    expect(parseWebpage(ie, 'html').link).toBe('http://ie.example.com/');
    const inside = html(
      '<html><!-- saved from url=(0023)https://in.example.com/ --><head></head><body>x</body></html>',
    );
    expect(parseWebpage(inside, 'html').link).toBe('https://in.example.com/');
    // A local page's mark (about:internet) is no link.
    const local = makeHtml({ savedFromUrl: 'about:internet' });
    expect(parseWebpage(local, 'html').link).toBeNull();
  });

  it('prefers SingleFile over saved from url, and either over canonical and og:url', () => {
    const page = makeHtml({
      singleFileUrl: 'https://sf.example/',
      savedFromUrl: 'https://chrome.example/',
      extraHead:
        '<link rel="canonical" href="https://c.example/"><meta property="og:url" content="https://og.example/">',
    });
    expect(parseWebpage(page, 'html').link).toBe('https://sf.example/');
    const chrome = makeHtml({
      savedFromUrl: 'https://chrome.example/',
      extraHead: '<link rel="canonical" href="https://c.example/">',
    });
    expect(parseWebpage(chrome, 'html').link).toBe('https://chrome.example/');
  });

  it('ignores a saver comment once the body started', () => {
    const page = html(
      '<html><head><title>t</title></head><body><p>x</p><!--\n Page saved with SingleFile \n url: https://late.example/ \n--><!-- saved from url=(0021)https://late.example/ --></body></html>',
    );
    expect(parseWebpage(page, 'html').link).toBeNull();
  });

  it('ignores url: lines in comments after the document started', () => {
    const page = parseWebpage(
      html(
        '<!DOCTYPE html><html><head><title>t</title></head><body><!--\n url: https://late.example/ \n--></body></html>',
      ),
      'html',
    );
    expect(page.link).toBeNull();
  });

  it('falls back to rel=canonical, then og:url', () => {
    const canonical = makeHtml({
      extraHead:
        '<link rel="alternate canonical" href="https://example.com/canonical"><meta property="og:url" content="https://example.com/og">',
    });
    expect(parseWebpage(canonical, 'html').link).toBe('https://example.com/canonical');
    const og = makeHtml({ extraHead: '<meta property="og:url" content="https://example.com/og">' });
    expect(parseWebpage(og, 'html').link).toBe('https://example.com/og');
  });

  it('only keeps absolute http(s) URLs', () => {
    for (const href of [
      '/relative',
      'javascript:alert(1)',
      'ftp://example.com/',
      'not a url',
      'file:///etc/passwd',
    ]) {
      const page = parseWebpage(
        makeHtml({ extraHead: `<link rel="canonical" href="${href}">` }),
        'html',
      );
      expect(page.link).toBeNull();
    }
    const skipped = makeHtml({
      singleFileUrl: 'about:blank',
      extraHead: '<link rel="canonical" href="http://example.com/x">',
    });
    expect(parseWebpage(skipped, 'html').link).toBe('http://example.com/x');
  });
});

describe('html: createTime', () => {
  it('parses the SingleFile saved date, ignoring the zone name', () => {
    const page = parseWebpage(
      makeHtml({
        singleFileUrl: 'https://example.com/',
        savedDate: 'Sat Nov 21 2026 10:11:12 GMT+0100 (Central European Standard Time)',
      }),
      'html',
    );
    expect(page.createTime).toBe(Date.UTC(2026, 10, 21, 9, 11, 12));
  });

  it('round-trips a Date written by makeHtml', () => {
    const saved = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(parseWebpage(makeHtml({ savedDate: saved }), 'html').createTime).toBe(saved.getTime());
  });

  it('is null without a SingleFile date or with an unreadable one', () => {
    expect(parseWebpage(makeHtml({ title: 't' }), 'html').createTime).toBeNull();
    expect(parseWebpage(makeHtml({ savedDate: 'yesterday-ish' }), 'html').createTime).toBeNull();
  });
});

describe('html: charsets', () => {
  it('uses <meta charset=windows-1252>', () => {
    const bytes = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1252"><title>Caf', 'latin1'),
      Buffer.from([0xe9, 0x20, 0x80]),
      Buffer.from('</title></head><body>x</body></html>', 'latin1'),
    ]);
    expect(parseWebpage(bytes, 'html').title).toBe('Café €');
  });

  it('uses http-equiv Shift_JIS', () => {
    const bytes = Buffer.concat([
      Buffer.from(
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>',
        'latin1',
      ),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]),
      Buffer.from('</title></head></html>', 'latin1'),
    ]);
    expect(parseWebpage(bytes, 'html').title).toBe('日本語');
  });

  it('reads UTF-16 with a byte order mark', () => {
    const source = '<html><head><title>Grüße 日本</title></head><body><p>text</p></body></html>';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(source, 'utf16le')]);
    expect(parseWebpage(le, 'html').title).toBe('Grüße 日本');
    const be = Buffer.from(source, 'utf16le').swap16();
    expect(parseWebpage(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'html').title).toBe(
      'Grüße 日本',
    );
  });

  it('reads unlabelled legacy pages as windows-1252 when they are not UTF-8', () => {
    const bytes = Buffer.from('<html><head><title>Café</title></head></html>', 'latin1');
    expect(parseWebpage(bytes, 'html').title).toBe('Café');
    expect(parseWebpage(html('<title>Café</title><p>x</p>'), 'html').title).toBe('Café');
  });
});

describe('html: rejects what is not HTML', () => {
  it.each<[string, Uint8Array]>([
    ['an empty file', new Uint8Array(0)],
    ['a PNG', makePng(16, 16, [10, 20, 30])],
    [
      'random bytes',
      Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919 + (i >> 3) * 31) & 0xff),
    ],
    ['plain text', html('Dear diary,\nno markup here at all.\nJust text < and > signs.\n')],
    ['text with an unknown tag', html('some words <foo> more words')],
    [
      'HTML with NUL bytes',
      Buffer.concat([html('<html><body>'), Buffer.alloc(10), html('</body></html>')]),
    ],
    [
      'HTML full of control characters',
      html(`<html><body>${'\u0001\u0002\u0003abc'.repeat(500)}</body></html>`),
    ],
  ])('%s', (_, bytes) => {
    expect(parseError(() => parseWebpage(bytes, 'html')).reason).toBeTruthy();
  });

  it('accepts a bare fragment with a known element', () => {
    expect(parseWebpage(html('<p>hello</p>'), 'html').text).toBe('hello');
  });
});

describe('mhtml', () => {
  const page = makeHtml({
    title: 'Grüße aus Köln',
    description: 'An MHTML page',
    body: '<p>Ceci est un café.</p>',
  });

  const date = new Date(Date.UTC(2026, 10, 21, 10, 11, 12));
  const withImage = () =>
    makeMhtml({
      html: page,
      url: 'https://example.com/articles/1',
      date,
      resources: [
        {
          url: 'https://example.com/a.png',
          contentType: 'image/png',
          body: makePng(2, 2, [1, 2, 3]),
        },
      ],
    });

  it('reads title, excerpt, link, createTime and text', () => {
    const { partIndex, ...result } = parseWebpage(withImage(), 'mhtml');
    expect(partIndex).toEqual(expect.any(String));
    expect(result).toEqual({
      title: 'Grüße aus Köln',
      excerpt: 'An MHTML page',
      link: 'https://example.com/articles/1',
      createTime: date.getTime(),
      text: 'Ceci est un café.',
    });
  });

  it('keeps an index of its parts that reads back as the file’s structure, headers as written', () => {
    const bytes = withImage();
    const { partIndex } = parseWebpage(bytes, 'mhtml');
    const structure = readMhtmlStructure(bytes);
    const indexed = readMhtmlIndex(partIndex ?? '', bytes.length);
    expect(indexed).toEqual(structure);
    // The subject as the file has it (encoded words), not as the title reads it.
    expect(indexed?.headers.get('subject')).toMatch(/^=\?utf-8\?Q\?Gr/);
    expect(indexed?.parts.map((part) => part.contentType)).toEqual(['text/html', 'image/png']);
    // An index is only good for the file it was made from.
    expect(readMhtmlIndex(partIndex ?? '', bytes.length + 1)).toBeUndefined();
  });

  it('falls back to the MIME Subject for the title', () => {
    const result = parseWebpage(
      makeMhtml({ html: '<html><body><p>untitled</p></body></html>', subject: 'Sujet déjà vu' }),
      'mhtml',
    );
    expect(result.title).toBe('Sujet déjà vu');
    expect(result.link).toBeNull();
  });

  it('uses the main part Content-Location, then the HTML, when the snapshot location is not http', () => {
    const base = makeMhtml({ html: page, url: 'https://example.com/real' }).toString('latin1');
    const snapshot = base.replace(
      'Snapshot-Content-Location: https://example.com/real',
      'Snapshot-Content-Location: file:///home/me/page.html',
    );
    expect(parseWebpage(Buffer.from(snapshot, 'latin1'), 'mhtml').link).toBe(
      'https://example.com/real',
    );
    const local = makeMhtml({
      html: makeHtml({ extraHead: '<link rel="canonical" href="https://example.com/canon">' }),
      url: 'file:///home/me/page.html',
    });
    expect(parseWebpage(local, 'mhtml').link).toBe('https://example.com/canon');
  });

  it('decodes the main part with its Content-Type charset', () => {
    const latin = Buffer.from(
      '<html><head><title>Café</title></head><body>é</body></html>',
      'latin1',
    );
    const result = parseWebpage(makeMhtml({ html: latin, charset: 'windows-1252' }), 'mhtml');
    expect(result.title).toBe('Café');
    expect(result.text).toBe('é'); // the title is not part of the text
  });

  it('reads a base64 main part', () => {
    const result = parseWebpage(makeMhtml({ html: page, htmlEncoding: 'base64' }), 'mhtml');
    expect(result.title).toBe('Grüße aus Köln');
  });

  it.each<[string, Uint8Array]>([
    ['an HTML page', makeHtml({ title: 'not mhtml' })],
    ['plain text', html('Subject: hello\n\njust text')],
    ['random bytes', Uint8Array.from({ length: 3000 }, (_, i) => (i * 2654435761) >>> 24)],
    ['an empty file', new Uint8Array(0)],
    ['a PNG', makePng(4, 4, [0, 0, 0])],
    ['a webarchive', makeWebarchive({ html: '<p>x</p>', url: 'https://e.com/' })],
  ])('rejects %s', (_, bytes) => {
    expect(parseError(() => parseWebpage(bytes, 'mhtml')).reason).toMatch(/mhtml/);
  });
});

describe('webarchive', () => {
  it('reads title, excerpt, link and text; createTime is unknown', () => {
    const result = parseWebpage(
      makeWebarchive({
        html: makeHtml({ title: 'Safari page', body: '<p>Saved with Safari</p>' }),
        url: 'https://example.com/safari',
        subresources: [
          {
            url: 'https://example.com/a.png',
            mimeType: 'image/png',
            data: makePng(1, 1, [0, 0, 0]),
          },
        ],
      }),
      'webarchive',
    );
    expect(result).toEqual({
      title: 'Safari page',
      excerpt: 'Saved with Safari',
      link: 'https://example.com/safari',
      createTime: null,
      text: 'Saved with Safari',
    });
  });

  it('decodes the main resource with its text encoding', () => {
    const latin = Buffer.from('<title>Café</title>', 'latin1');
    const result = parseWebpage(
      makeWebarchive({ html: latin, url: 'https://example.com/', textEncoding: 'ISO-8859-1' }),
      'webarchive',
    );
    expect(result.title).toBe('Café');
  });

  it('sniffs the charset when the text encoding is missing', () => {
    const sjis = Buffer.concat([
      Buffer.from('<meta charset="shift_jis"><title>', 'latin1'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
      Buffer.from('</title>', 'latin1'),
    ]);
    const result = parseWebpage(
      makeWebarchive({ html: sjis, url: 'https://example.com/', textEncoding: null }),
      'webarchive',
    );
    expect(result.title).toBe('日本');
  });

  it('accepts XHTML and rejects a main resource that is not HTML', () => {
    const xhtml = makeWebarchive({
      html: '<title>X</title>',
      url: 'https://e.com/',
      mimeType: 'application/xhtml+xml',
    });
    expect(parseWebpage(xhtml, 'webarchive').title).toBe('X');
    const image = makeWebarchive({
      html: makePng(2, 2, [1, 1, 1]),
      url: 'https://e.com/a.png',
      mimeType: 'image/png',
      textEncoding: null,
    });
    expect(parseError(() => parseWebpage(image, 'webarchive')).reason).toMatch(/image\/png/);
  });

  it('ignores a WebResourceURL that is not http(s)', () => {
    const result = parseWebpage(
      makeWebarchive({ html: '<p>x</p>', url: 'file:///Users/me/x.html' }),
      'webarchive',
    );
    expect(result.link).toBeNull();
  });

  it.each<[string, Uint8Array]>([
    ['an HTML page', makeHtml({ title: 'not a webarchive' })],
    ['an MHTML file', makeMhtml({ html: '<p>x</p>' })],
    ['random bytes', Uint8Array.from({ length: 3000 }, (_, i) => (i * 40503) & 0xff)],
    ['an empty file', new Uint8Array(0)],
    ['plain text', html('hello')],
  ])('rejects %s', (_, bytes) => {
    expect(parseError(() => parseWebpage(bytes, 'webarchive')).reason).toMatch(
      /bplist|plist|webarchive/,
    );
  });
});

describe('any bytes', () => {
  it.each<WebpageExt>(['html', 'mhtml', 'webarchive'])(
    'as %s give a ParsedWebpage or a ParseError',
    (ext) => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
          try {
            const page = parseWebpage(bytes, ext);
            expect(typeof page.title).toBe('string');
            expect(typeof page.text).toBe('string');
          } catch (error) {
            expect(error).toBeInstanceOf(ParseError);
          }
        }),
        { numRuns: 300 },
      );
    },
  );

  it('as html: printable text with random tags gives a ParsedWebpage or a ParseError', () => {
    const token = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        '<p>',
        '</p>',
        '<title>',
        '</title>',
        '<script>',
        '</script>',
        '<!--',
        '-->',
        '<svg>',
        '<meta name="description" content="',
        '"',
      ),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        try {
          const page = parseWebpage(html(tokens.join('')), 'html');
          expect(page.text).not.toMatch(/\s{2}|^\s|\s$/);
        } catch (error) {
          expect(error).toBeInstanceOf(ParseError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
