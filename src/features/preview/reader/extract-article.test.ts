import { describe, expect, it } from 'vitest';

import {
  appPageBody,
  LONG_ARTICLE,
  longArticleBody,
  RTL_ARTICLE,
  rtlArticleBody,
  shortParagraphsBody,
} from '../../../../test/support/reader-pages.ts';
import { previewResponse } from '../document/build-preview.ts';
import { reservedMemberNames } from '../document/document-members.ts';
import { materializePreview } from '../frame/materialize.ts';
import { makeMhtml, PNG, utf8 } from '../../../test/archives.ts';
import {
  extractArticle,
  extractArticleFromHtml,
  rebuildArticleHtml,
  type ExtractOptions,
} from './extract-article.ts';

const PAGE = 'https://example.com/articles/long.html';
const LIVE = 'https://live.example.net';
const reservedNames = reservedMemberNames();

function page(body: string, htmlAttributes = 'lang="en"', title = 'A page'): string {
  return `<!DOCTYPE html><html ${htmlAttributes}><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/**
 * The preview pipeline as the app runs it (the worker's job in-process, fake blob: URLs), then the
 * reader's extraction on its document, allowing exactly the preview's URLs as images.
 */
function readerOf(bytes: Uint8Array, ext: 'html' | 'mhtml' = 'html') {
  const response = previewResponse(ext, bytes, reservedNames);
  if (!response.ok) throw new Error(response.message);
  const urls: string[] = [];
  const { html } = materializePreview(response, () => {
    urls.push(`blob:test/${urls.length}`);
    return urls.at(-1)!;
  });
  const archive = new Set(urls);
  const extraction = extractArticleFromHtml(html, {
    isArchiveUrl: (url) => archive.has(url) || url.startsWith('data:image/'),
    fallbackTitle: 'Fallback title',
  });
  return { extraction, urls };
}

function parseFragment(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

const onlyBlobs: ExtractOptions = { isArchiveUrl: (url) => url.startsWith('blob:test/') };

describe('extractArticle', () => {
  it('finds the long article of an MHTML page: title, byline, headings, reading time, the archived image', () => {
    const bytes = makeMhtml(
      [
        {
          type: 'text/html',
          location: PAGE,
          body: page(
            longArticleBody({ imageSrc: 'harbour.png', liveOrigin: LIVE }),
            'lang="en"',
            LONG_ARTICLE.title,
          ),
        },
        { type: 'image/png', location: 'https://example.com/articles/harbour.png', body: PNG },
      ],
      PAGE,
    );
    const { extraction, urls } = readerOf(bytes, 'mhtml');
    expect(extraction.status).toBe('article');
    if (extraction.status !== 'article') return;
    const { article } = extraction;
    expect(article.title).toBe(LONG_ARTICLE.title);
    expect(article.byline).toBe(LONG_ARTICLE.byline);
    expect(article.words).toBeGreaterThan(4000);
    expect(article.minutes).toBe(Math.round(article.words / 230));
    expect(article.dir).toBeNull();
    expect(article.lang).toBe('en');
    const doc = parseFragment(article.html);
    expect(doc.querySelector('h2')?.textContent).toBe(LONG_ARTICLE.firstHeading);
    // The archive's image, by the URL the preview made for it; the live pixel is gone.
    const images = Array.from(doc.querySelectorAll('img'));
    expect(images.map((image) => image.getAttribute('src'))).toEqual([urls[0]]);
    expect(doc.querySelector('figcaption')?.textContent).toBe(LONG_ARTICLE.caption);
    expect(article.html).not.toContain(LIVE);
  });

  it('keeps links with an http(s) href or a #fragment and nothing else of them', () => {
    const { extraction } = readerOf(
      utf8(
        page(longArticleBody({ imageSrc: 'data:image/png;base64,iVBORw0KGgo=', liveOrigin: LIVE })),
      ),
    );
    expect(extraction.status).toBe('article');
    if (extraction.status !== 'article') return;
    const doc = parseFragment(extraction.article.html);
    const link = Array.from(doc.querySelectorAll('a')).find(
      (anchor) => anchor.textContent === LONG_ARTICLE.linkText,
    );
    expect(link?.getAttribute('href')).toBe(LONG_ARTICLE.linkHref);
    expect(link?.getAttributeNames()).toEqual(['href']);
    // A data: image of the page itself is kept (it never leaves the browser).
    expect(doc.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png/);
  });

  it('says there is no article in an app-like page of links and forms', () => {
    const { extraction } = readerOf(utf8(page(appPageBody())));
    expect(extraction).toEqual({ status: 'none', reason: 'not-readerable' });
  });

  it('finds an article written in short paragraphs, which the quick test alone would miss', () => {
    const { extraction } = readerOf(utf8(page(shortParagraphsBody())));
    expect(extraction.status).toBe('article');
  });

  it('lays a Hebrew article out right to left, from the document or from its language', () => {
    const fromDir = readerOf(
      utf8(page(rtlArticleBody(), 'dir="rtl" lang="he"', RTL_ARTICLE.title)),
    );
    expect(fromDir.extraction.status).toBe('article');
    if (fromDir.extraction.status !== 'article') return;
    expect(fromDir.extraction.article.dir).toBe('rtl');
    expect(fromDir.extraction.article.lang).toBe('he');
    expect(fromDir.extraction.article.title).toBe(RTL_ARTICLE.title);

    const fromLang = readerOf(utf8(page(rtlArticleBody(), 'lang="he-IL"')));
    expect(fromLang.extraction.status === 'article' && fromLang.extraction.article.dir).toBe('rtl');
  });
});

describe('rebuildArticleHtml', () => {
  it('drops scripts, styles, frames, forms, event handlers, styles and classes', () => {
    const doc = parseFragment(
      '<div id="root"><p class="x" style="color:red" onclick="alert(1)" onmouseover="alert(2)">Text</p>' +
        '<script>alert(3)</script><style>p{}</style><iframe src="https://evil.example/"></iframe>' +
        '<form action="https://evil.example/"><input name="attributes" value="v"><button>Go</button></form>' +
        '<svg><script>alert(4)</script></svg><object data="x.swf"></object>' +
        '<custom-element onclick="alert(5)"><b>kept content</b></custom-element></div>',
    );
    const html = rebuildArticleHtml(doc.getElementById('root')!, onlyBlobs);
    expect(html).toBe('<p>Text</p><b>kept content</b>');
  });

  it('keeps images only from the archive: no live, lazy or javascript source, no srcset', () => {
    const doc = parseFragment(
      '<div id="root"><img src="blob:test/0" alt="archived" srcset="https://live.example/a.png 2x">' +
        '<img src="https://live.example/b.png" alt="live"><img data-src="blob:test/1" alt="lazy">' +
        '<img src="javascript:alert(1)" alt="js"><img src="blob:https://other.example/x" alt="other"></div>',
    );
    const html = rebuildArticleHtml(doc.getElementById('root')!, onlyBlobs);
    expect(html).toBe('<img src="blob:test/0" alt="archived">');
  });

  it('routes links through the policy: javascript:, data: and relative hrefs lose their href', () => {
    const doc = parseFragment(
      '<div id="root"><a href="https://example.org/a" target="_top" ping="https://t.example/">web</a>' +
        '<a href="#part-2">fragment</a><a href="javascript:alert(1)">js</a>' +
        '<a href="data:text/html,x">data</a><a href="mailto:a@example.org">mail</a></div>',
    );
    const html = rebuildArticleHtml(doc.getElementById('root')!, onlyBlobs);
    expect(html).toBe(
      '<a href="https://example.org/a">web</a><a href="#part-2">fragment</a><a>js</a><a>data</a><a>mail</a>',
    );
  });

  it('escapes text and attribute values so the markup cannot be broken out of', () => {
    const doc = parseFragment(
      '<div id="root"><p title="&quot;><script>x</script>">a &lt;b&gt; &amp; c</p></div>',
    );
    const html = rebuildArticleHtml(doc.getElementById('root')!, onlyBlobs);
    expect(html).toBe(
      '<p title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">a &lt;b&gt; &amp; c</p>',
    );
  });

  it('stops at a bounded depth instead of recursing without end', () => {
    const depth = 400;
    const doc = parseFragment(
      `<div id="root">${'<span>'.repeat(depth)}deep${'</span>'.repeat(depth)}</div>`,
    );
    const html = rebuildArticleHtml(doc.getElementById('root')!, onlyBlobs);
    expect(html).not.toContain('deep');
    expect(html.split('<span>').length - 1).toBeLessThan(300);
  });
});

describe('extractArticle on a document', () => {
  it('says so when the page is past the element bound instead of parsing it', () => {
    const doc = parseFragment(
      `<article><h1>Big</h1>${'<p>'.concat(Array(60).fill('word, text').join(' '), '</p>').repeat(20)}${'<span></span>'.repeat(1_000)}</article>`,
    );
    expect(extractArticle(doc, { ...onlyBlobs, maxElements: 500 })).toEqual({
      status: 'none',
      reason: 'too-large',
    });
  });
});
