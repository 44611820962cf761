import { describe, expect, it } from 'vitest';

import { encodeBase64 } from '../../../../shared/formats/bytes.ts';
import { materializePreview } from '../frame/materialize.ts';
import {
  makeMhtml,
  makeWebarchive,
  PNG,
  originalFile,
  readBlob,
  utf8,
  type MhtmlPartSpec,
} from '../../../test/archives.ts';
import type { OriginalFile } from '../../../api/original-file.ts';
import { MAX_PREVIEW_INPUT_BYTES } from './budgets.ts';
import {
  handlePreviewRequest,
  previewResponse,
  type PreviewExt,
  type PreviewResponse,
} from './build-preview.ts';
import { reservedMemberNames } from './document-members.ts';
import { PREVIEW_CSP } from './preamble.ts';

const PAGE = 'https://example.com/articles/page.html';
const reservedNames = reservedMemberNames();
/** The page's own style elements (every preview also has the highlight rules, `data-folio`). */
const PAGE_STYLES = 'style:not([data-folio])';

/** The document of an answer, whole, its resources as tokens; or why there is none. */
function text(response: PreviewResponse): string {
  return response.ok
    ? response.parts.map(({ template }) => template.strings.join('')).join('')
    : response.message;
}

/** Runs the worker's job in-process, makes fake blob: URLs and parses the result like a browser. */
function render(ext: PreviewExt, bytes: Uint8Array) {
  const response = previewResponse(ext, bytes, reservedNames);
  if (!response.ok) throw new Error(response.message);
  const blobs: Blob[] = [];
  const { html } = materializePreview(response, (resource) => {
    if (typeof resource === 'string') return resource;
    blobs.push(resource);
    return `blob:test/${blobs.length - 1}`;
  });
  return { html, doc: parse(html), blobs };
}

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

function renderHtml(html: string) {
  return render('html', utf8(html));
}

function renderMhtml(html: string, resources: MhtmlPartSpec[] = []) {
  return render(
    'mhtml',
    makeMhtml([{ type: 'text/html', location: PAGE, body: html }, ...resources], PAGE),
  );
}

/** The document a frame shows (its srcdoc), parsed. */
function frameDocument(frame: Element | null): Document {
  const srcdoc = frame?.getAttribute('srcdoc');
  if (!srcdoc) throw new Error('the frame has no srcdoc');
  return parse(srcdoc);
}

function allAttributes(doc: Document): string[] {
  return Array.from(doc.querySelectorAll('*')).flatMap((element) =>
    Array.from(element.attributes, (attribute) => `${attribute.name}=${attribute.value}`),
  );
}

function expectPreamble(doc: Document) {
  const first = doc.head.firstElementChild;
  expect(first?.getAttribute('http-equiv')).toBe('Content-Security-Policy');
  expect(first?.getAttribute('content')).toBe(PREVIEW_CSP);
  expect(doc.head.querySelector('meta[name="referrer"]')?.getAttribute('content')).toBe(
    'no-referrer',
  );
  expect(doc.head.querySelector('meta[charset]')?.getAttribute('charset')).toBe('utf-8');
  expect(doc.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]')).toHaveLength(1);
}

describe('the preview document', () => {
  it('starts <head> with the CSP, referrer and charset metas, whatever the page has', () => {
    for (const page of [
      '<!DOCTYPE html><html><head><title>T</title></head><body><p>x</p></body></html>',
      '<p>no html, head or body</p>',
      '<title>T</title><meta name=description content=d><p>body</p>',
      '<html><body>only a body</body></html>',
      '<!-- SingleFile --><html lang=fr><head><meta http-equiv="Content-Security-Policy" content="default-src *"></head><body>x</body></html>',
    ]) {
      const { doc } = renderHtml(page);
      expectPreamble(doc);
    }
    const { doc } = renderHtml('<!DOCTYPE html><html lang=fr><head><title>T</title></head><p>x');
    expect(doc.doctype?.name).toBe('html');
    expect(doc.documentElement.lang).toBe('fr');
    expect(doc.title).toBe('T');
    expect(doc.body.textContent).toBe('x');
  });

  it('keeps the page readable: text, structure, entities, tables and SVG', () => {
    const { doc } = renderHtml(
      '<h1 class=t>Café &amp; <b>bold</b></h1><table><tr><td>cell</td></tr></table>' +
        '<svg viewBox="0 0 10 10"><linearGradient id=g></linearGradient><path d="M0 0"/><circle r=1 /></svg>' +
        '<textarea>a &lt;b&gt;</textarea>',
    );
    expect(doc.querySelector('h1.t')?.textContent).toBe('Café & bold');
    expect(doc.querySelector('td')?.textContent).toBe('cell');
    const svg = doc.querySelector('svg')!;
    expect(svg.getAttribute('viewBox')).toBe('0 0 10 10');
    expect(svg.querySelector('linearGradient')).not.toBeNull();
    // Self-closing SVG children stay siblings.
    expect(svg.querySelector('path')?.children).toHaveLength(0);
    expect(svg.querySelector('path + circle')).not.toBeNull();
    expect(doc.querySelector('textarea')?.value).toBe('a <b>');
  });
});

describe('dangerous constructs are removed', () => {
  it('drops scripts everywhere, noscript, event handlers and inert plugin elements', () => {
    const { doc, html } = renderHtml(
      '<html><head><script src="https://evil.example/a.js"></script><noscript><img src=x></noscript></head>' +
        '<body onload="alert(1)"><div onclick="alert(1)" OnMouseOver="x">a</div>' +
        '<img src="data:image/png;base64,AAAA" onerror="alert(1)">' +
        '<svg><script>alert(1)</script><rect onclick="alert(1)"/></svg>' +
        '<object data="https://evil.example/x.swf"><param name=movie value=x><p>fallback</p></object>' +
        '<embed src="https://evil.example/e.swf"><applet code=x>applet fallback</applet></body></html>',
    );
    expect(doc.querySelectorAll('script, noscript, object, embed, applet, param')).toHaveLength(0);
    expect(allAttributes(doc).filter((attribute) => /^on/i.test(attribute))).toEqual([]);
    expect(html).not.toContain('alert(1)');
    expect(html).not.toContain('evil.example');
    expect(doc.body.textContent).toContain('fallback');
    expect(doc.body.textContent).toContain('applet fallback');
    expect(doc.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,AAAA');
  });

  it('drops meta refresh, <base>, the page’s CSP, charset and referrer metas, even inside SVG', () => {
    const { doc, html } = renderHtml(
      '<head><meta http-equiv="refresh" content="0;url=https://evil.example/">' +
        '<meta http-equiv="content-security-policy" content="default-src *">' +
        '<meta charset="shift_jis"><meta name="referrer" content="unsafe-url">' +
        '<base href="https://evil.example/"><meta name="description" content="kept">' +
        '<meta http-equiv="content-language" content="fr"></head>' +
        '<body><svg><meta http-equiv="refresh" content="0;url=https://evil.example/"></svg></body>',
    );
    expect(html).not.toContain('evil.example');
    expect(doc.querySelectorAll('base')).toHaveLength(0);
    expect(doc.querySelector('meta[http-equiv="refresh" i]')).toBeNull();
    expect(doc.querySelectorAll('meta[charset]')).toHaveLength(1);
    expect(doc.querySelectorAll('meta[name="referrer"]')).toHaveLength(1);
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('kept');
    expect(doc.querySelector('meta[http-equiv="content-language"]')).not.toBeNull();
    expectPreamble(doc);
  });

  it('removes javascript:, vbscript: and data:text/html URLs, targets and pings from links', () => {
    const { doc } = renderHtml(
      '<a id=js href=" JaVa&#x09;script:alert(1)">1</a><a id=vb href="vbscript:msgbox(1)">2</a>' +
        '<a id=data href="data:text/html,<script>alert(1)</script>">3</a>' +
        '<a id=ok href="https://example.org/x" target="_top" ping="https://evil.example/p" download>4</a>' +
        '<area id=area href="javascript:alert(1)" target=_blank><a id=mail href="mailto:a@b.c">m</a>' +
        '<img id=img src="data:text/html;base64,PHNjcmlwdD4=">' +
        '<svg><a id=svga xlink:href="javascript:alert(1)"><text>t</text></a></svg>',
    );
    for (const id of ['js', 'vb', 'data', 'area', 'mail', 'svga']) {
      const element = doc.getElementById(id)!;
      expect(element.hasAttribute('href'), id).toBe(false);
      expect(element.getAttributeNS('http://www.w3.org/1999/xlink', 'href'), id).toBeNull();
    }
    const ok = doc.getElementById('ok')!;
    expect(ok.getAttribute('href')).toBe('https://example.org/x');
    expect(ok.hasAttribute('target')).toBe(false);
    expect(ok.hasAttribute('ping')).toBe(false);
    expect(ok.hasAttribute('download')).toBe(false);
    expect(ok.getAttribute('rel')).toBe('noopener noreferrer');
    expect(doc.getElementById('img')?.hasAttribute('src')).toBe(false);
  });

  it('shows frames that are not in the archive as empty documents with the CSP', () => {
    const { doc } = renderHtml(
      '<iframe src="https://evil.example/"></iframe><iframe src="javascript:alert(1)"></iframe><iframe></iframe>',
    );
    const frames = Array.from(doc.querySelectorAll('iframe'));
    expect(frames).toHaveLength(3);
    for (const frame of frames) {
      const inner = frameDocument(frame);
      expectPreamble(inner);
      expect(inner.body.childNodes).toHaveLength(0);
    }
  });

  it('writes pages nested 10 000 deep (no recursion)', () => {
    const response = previewResponse(
      'html',
      utf8(
        '<div>'.repeat(10_000) +
          '<p>deep</p><img src=x onerror=alert(1)>' +
          '</div>'.repeat(10_000),
      ),
      reservedNames,
    );
    // (jsdom takes minutes to parse such a document; the string tells enough.)
    const html = text(response);
    expect(html).toContain(`${'<div>'.repeat(10_000)}<p>deep</p><img>${'</div>'.repeat(10_000)}`);
  });

  it('neutralises forms and drops iframe srcdoc, external frames and frame permissions', () => {
    const { doc, html } = renderHtml(
      '<form action="https://evil.example/post" method=post target=_top><input name=q autofocus>' +
        '<button formaction="https://evil.example/b" formtarget=_top>Go</button>' +
        '<input type=image src="https://evil.example/i.png"></form>' +
        '<iframe id=a srcdoc="<script>alert(1)</script>" sandbox="allow-scripts allow-same-origin"></iframe>' +
        '<iframe id=b src="https://evil.example/frame" allow="camera" allowfullscreen></iframe>',
    );
    expect(html).not.toContain('evil.example');
    expect(html).not.toContain('alert(1)');
    const form = doc.querySelector('form')!;
    expect(form.hasAttribute('action')).toBe(false);
    expect(form.hasAttribute('target')).toBe(false);
    expect(doc.querySelector('input[name=q]')?.hasAttribute('autofocus')).toBe(false);
    for (const frame of Array.from(doc.querySelectorAll('iframe'))) {
      expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
      expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
      expect(frame.hasAttribute('src')).toBe(false);
      expect(frame.hasAttribute('allow')).toBe(false);
      expect(frameDocument(frame).body.innerHTML).toBe('');
    }
  });

  it('inlines stylesheet links that resolve into the archive and drops every other link', () => {
    const { doc } = renderMhtml(
      '<head>' +
        [
          'preload',
          'prefetch',
          'dns-prefetch',
          'preconnect',
          'modulepreload',
          'import',
          'manifest',
          'icon',
        ]
          .map((rel) => `<link rel="${rel}" href="https://example.com/site.css">`)
          .join('') +
        '<link rel=stylesheet href="https://elsewhere.example/missing.css">' +
        '<link rel="alternate stylesheet" href="/site.css" title=alt>' +
        '<link rel=stylesheet href="/site.css" integrity="sha384-x" crossorigin media="screen">' +
        '</head><body>x</body>',
      [{ type: 'text/css', location: 'https://example.com/site.css', body: 'p{color:red}' }],
    );
    expect(doc.querySelectorAll('link')).toHaveLength(0);
    const styles = Array.from(doc.querySelectorAll(PAGE_STYLES));
    expect(styles).toHaveLength(1);
    expect(styles[0]!.textContent).toBe('p{color:red}');
    expect(styles[0]!.getAttribute('media')).toBe('screen');
    expect(styles[0]!.attributes).toHaveLength(1);
  });

  it('drops srcset candidates, posters, sources and SVG references that point outside', () => {
    const { doc, html } = renderMhtml(
      '<img id=i src="a.png" srcset="a.png 1x, https://evil.example/2x.png 2x">' +
        '<img id=j srcset="https://evil.example/only.png 1x">' +
        '<picture><source id=s srcset="https://evil.example/s.webp" type=image/webp><img src=a.png></picture>' +
        '<video id=v poster="https://evil.example/p.jpg" src="https://evil.example/v.mp4" autoplay>' +
        '<source id=vs src="https://evil.example/v.webm"><track src="https://evil.example/t.vtt"></video>' +
        '<svg><use id=u1 xlink:href="https://evil.example/sprite.svg#i"/><use id=u2 href="#local"/>' +
        '<image id=si href="https://evil.example/i.png"/><image id=si2 xlink:href="a.png"/>' +
        '<animate attributeName="href" to="javascript:alert(1)"/><set attributeName="xlink:href" to="https://evil.example/"/></svg>' +
        '<table background="https://evil.example/bg.png"><tr><td>x</td></tr></table>',
      [{ type: 'image/png', location: 'https://example.com/articles/a.png', body: PNG }],
    );
    expect(html).not.toContain('evil.example');
    expect(doc.getElementById('i')?.getAttribute('srcset')).toMatch(/^blob:test\/\d+ 1x$/);
    expect(doc.getElementById('j')?.hasAttribute('srcset')).toBe(false);
    expect(doc.getElementById('s')?.hasAttribute('srcset')).toBe(false);
    const video = doc.getElementById('v')!;
    expect(video.hasAttribute('poster')).toBe(false);
    expect(video.hasAttribute('src')).toBe(false);
    expect(video.hasAttribute('autoplay')).toBe(false);
    expect(doc.getElementById('vs')?.hasAttribute('src')).toBe(false);
    expect(doc.querySelector('track')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('u1')?.attributes).toHaveLength(1);
    expect(doc.getElementById('u2')?.getAttribute('href')).toBe('#local');
    expect(doc.getElementById('si')?.attributes).toHaveLength(1);
    expect(
      doc.getElementById('si2')?.getAttributeNS('http://www.w3.org/1999/xlink', 'href'),
    ).toMatch(/^blob:test\/\d+$/);
    expect(doc.querySelectorAll('animate, set')).toHaveLength(0);
    expect(doc.querySelector('table')?.hasAttribute('background')).toBe(false);
  });

  it('keeps <style> text as CSS even when it contains markup-like text', () => {
    const { doc } = renderHtml(
      '<style>p<img src=x>{color:red}</style>' +
        '<svg><style>a::after{content:"&lt;/style&gt;&lt;img src=x onerror=alert(1)&gt;"}</style></svg><p>x</p>',
    );
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    const [html, svg] = Array.from(doc.querySelectorAll(PAGE_STYLES), (style) => style.textContent);
    expect(html).toBe('p\\3c img src=x>{color:red}');
    expect(svg).toBe('a::after{content:"\\3c /style>\\3c img src=x onerror=alert(1)>"}');
  });

  it('turns xmp and plaintext into <pre> text', () => {
    const { doc } = renderHtml('<xmp><b>not bold</b></xmp><p>after</p>');
    expect(doc.querySelector('pre')?.textContent).toBe('<b>not bold</b>');
    expect(doc.querySelector('b')).toBeNull();
  });

  it('opens closed declarative shadow roots, so the app sees links in them', () => {
    const { html } = renderHtml(
      '<div><template shadowrootmode="closed"><a href="https://example.org/">x</a></template></div>',
    );
    expect(html).toContain('shadowrootmode="open"');
  });

  it('says whether the preview has declarative shadow roots, frames included, and writes no other', () => {
    const shadowRootsOf = (bytes: Uint8Array, ext: PreviewExt = 'html') => {
      const response = previewResponse(ext, bytes, reservedNames);
      if (!response.ok) throw new Error(response.message);
      return { shadowRoots: response.shadowRoots, html: text(response) };
    };
    expect(shadowRootsOf(utf8('<div><p>plain</p><template><p>inert</p></template></div>'))).toEqual(
      {
        shadowRoots: false,
        html: expect.not.stringContaining('shadowroot'),
      },
    );
    expect(
      shadowRootsOf(utf8('<div><TEMPLATE ShadowRootMode="closed"><p>x</p></TEMPLATE></div>')),
    ).toMatchObject({ shadowRoots: true });
    // On anything but a template, the attribute makes no shadow root: it is dropped.
    expect(
      shadowRootsOf(utf8('<div shadowrootmode="open"><svg><g shadowroot="open"></g></svg></div>')),
    ).toEqual({ shadowRoots: false, html: expect.not.stringContaining('shadowroot') });
    const frame = 'https://example.com/frame.html';
    const mhtml = makeMhtml(
      [
        { type: 'text/html', location: PAGE, body: `<iframe src="${frame}"></iframe>` },
        {
          type: 'text/html',
          location: frame,
          body: '<div><template shadowrootmode="open"><p>in a frame</p></template></div>',
        },
      ],
      PAGE,
    );
    expect(shadowRootsOf(mhtml, 'mhtml')).toMatchObject({ shadowRoots: true });
  });
});

describe('HTML files (SingleFile)', () => {
  it('keeps data: images, fonts and stylesheets; drops other data: types and every remote URL', () => {
    const font = 'data:font/woff2;base64,d09GMgAB';
    const svg = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
    const { doc, html } = renderHtml(
      `<style>@font-face{font-family:f;src:url(${font}) format("woff2")}` +
        '.a{background:url(https://evil.example/bg.png)} .b{background:url(data:text/html,x)}' +
        '@import url(https://evil.example/x.css);</style>' +
        `<img id=svg src="${svg}"><img id=remote src="https://evil.example/r.png">` +
        '<link rel=stylesheet href="data:text/css,.c%7Bbackground:url(https://evil.example/c.png)%7D">' +
        '<div id=d style="background-image:url(https://evil.example/s.png)">x</div>',
    );
    const [css = '', linked] = Array.from(
      doc.querySelectorAll(PAGE_STYLES),
      (style) => style.textContent,
    );
    expect(css).toContain(`url("${font}")`);
    expect(css).toContain('.a{background:none}');
    expect(css).toContain('.b{background:none}');
    expect(css).not.toContain('@import');
    expect(doc.getElementById('svg')?.getAttribute('src')).toBe(svg);
    expect(doc.getElementById('remote')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('d')?.getAttribute('style')).toBe('background-image:none');
    expect(linked).toBe('.c{background:none}');
    expect(html).not.toContain('evil.example');
  });

  it('resolves links against the SingleFile url: line and keeps fragments in the page', () => {
    const { doc } = renderHtml(
      '<!--\n Page saved with SingleFile \n url: https://example.com/blog/post \n saved date: x\n-->' +
        '<a id=rel href="../about">about</a><a id=frag href="#s2">s2</a>' +
        '<a id=self href="https://example.com/blog/post#s3">s3</a><h2 id=s2>s2</h2>',
    );
    expect(doc.getElementById('rel')?.getAttribute('href')).toBe('https://example.com/about');
    expect(doc.getElementById('frag')?.getAttribute('href')).toBe('#s2');
    expect(doc.getElementById('self')?.getAttribute('href')).toBe('#s3');
  });

  it('decodes the declared charset', () => {
    const bytes = Uint8Array.from([
      ...utf8('<meta charset="windows-1252"><p>'),
      0x63,
      0x61,
      0x66,
      0xe9,
      ...utf8('</p>'),
    ]);
    const { doc } = render('html', bytes);
    expect(doc.querySelector('p')?.textContent).toBe('café');
  });
});

describe('MHTML', () => {
  const png = (location: string): MhtmlPartSpec => ({ type: 'image/png', location, body: PNG });

  it('rewrites images to the archive parts, relative to the document and once per resource', async () => {
    const { doc, blobs } = renderMhtml(
      '<img id=a src="img/p.png"><img id=b src="/articles/img/p.png#frag">' +
        '<img id=c src="https://example.com/articles/img/p.png"><img id=d src="img/missing.png">' +
        '<div id=e style="background:url(img/p.png)"></div>',
      [png('https://example.com/articles/img/p.png')],
    );
    const src = doc.getElementById('a')?.getAttribute('src');
    expect(src).toMatch(/^blob:test\/\d+$/);
    expect(doc.getElementById('b')?.getAttribute('src')).toBe(src);
    expect(doc.getElementById('c')?.getAttribute('src')).toBe(src);
    expect(doc.getElementById('d')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('e')?.getAttribute('style')).toBe(`background:url("${src}")`);
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.type).toBe('image/png');
    expect(await readBlob(blobs[0]!)).toEqual(PNG);
  });

  it('resolves CSS url() and @import relative to the stylesheet, not the page', () => {
    const { doc, blobs } = renderMhtml(
      '<link rel=stylesheet href="https://cdn.example/css/site.css">',
      [
        {
          type: 'text/css',
          location: 'https://cdn.example/css/site.css',
          body: '@import "parts/extra.css" print; body{background:url(../img/bg.png)}',
        },
        {
          type: 'text/css',
          location: 'https://cdn.example/css/parts/extra.css',
          body: '@import url(../site.css); h1{background:url(../../img/bg.png)}',
        },
        png('https://cdn.example/img/bg.png'),
      ],
    );
    expect(blobs.map((blob) => blob.type)).toEqual(['image/png']);
    // The import cycle back to site.css is cut; the image is found from the nested folder too.
    expect(doc.querySelector(PAGE_STYLES)?.textContent).toBe(
      '@media print{\n h1{background:url("blob:test/0")}\n} body{background:url("blob:test/0")}',
    );
  });

  it('finds parts by cid: Content-ID', () => {
    const { doc } = renderMhtml('<img id=a src="cid:image-1@example"><img id=b src="cid:nope@x">', [
      { type: 'image/png', contentId: 'image-1@example', body: PNG },
    ]);
    expect(doc.getElementById('a')?.getAttribute('src')).toMatch(/^blob:test\/\d+$/);
    expect(doc.getElementById('b')?.hasAttribute('src')).toBe(false);
  });

  it('renders cid: frames as nested sanitized documents, relative to the frame’s own URL', () => {
    const { doc } = renderMhtml(
      '<p>outer</p><iframe id=f src="cid:frame-1@mhtml.blink" width=300 srcdoc="x"></iframe>',
      [
        {
          type: 'text/html',
          contentId: 'frame-1@mhtml.blink',
          location: 'https://frames.example/widget/',
          body:
            '<body onload=alert(1)><p>inner</p><script>alert(1)</script><img src="logo.png">' +
            '<iframe src="cid:frame-1@mhtml.blink"></iframe><a href="/x" target=_parent>x</a></body>',
        },
        png('https://frames.example/widget/logo.png'),
      ],
    );
    const frame = doc.getElementById('f')!;
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(frame.getAttribute('width')).toBe('300');
    const inner = frameDocument(frame);
    expectPreamble(inner);
    expect(inner.body.textContent).toBe('innerx');
    expect(inner.querySelector('script')).toBeNull();
    expect(inner.body.hasAttribute('onload')).toBe(false);
    expect(inner.querySelector('img')?.getAttribute('src')).toMatch(/^blob:test\/\d+$/);
    expect(inner.querySelector('a')?.getAttribute('href')).toBe('https://frames.example/x');
    expect(inner.querySelector('a')?.hasAttribute('target')).toBe(false);
    // The frame refers to itself: the cycle is cut, the nested frame stays empty.
    expect(frameDocument(inner.querySelector('iframe')).body.innerHTML).toBe('');
  });

  it('turns a frameset into a grid of sandboxed frames', () => {
    const { doc } = renderMhtml(
      '<html><head><title>F</title></head><frameset cols="25%,*"><frame src="cid:left@x" onload=x>' +
        '<frameset rows="100,2*"><frame src="cid:left@x"><frame src="https://missing.example/"></frameset></frameset></html>',
      [{ type: 'text/html', contentId: 'left@x', body: '<p>menu</p>' }],
    );
    const grid = doc.body.firstElementChild as HTMLElement;
    expect(grid.getAttribute('style')).toContain('grid-template-columns:25% minmax(0,1fr)');
    const frames = Array.from(doc.querySelectorAll('iframe'));
    expect(frames).toHaveLength(3);
    expect(frames.every((frame) => frame.getAttribute('sandbox') === 'allow-same-origin')).toBe(
      true,
    );
    expect(frameDocument(frames[0]!).body.textContent).toBe('menu');
    expect(frameDocument(frames[1]!).body.textContent).toBe('menu');
    expect(frameDocument(frames[2]!).body.innerHTML).toBe('');
    expect(frames[0]!.hasAttribute('onload')).toBe(false);
  });

  it('gives blob: URLs only types that never run as documents', () => {
    const { doc, blobs } = renderMhtml(
      '<img id=html src="fake.png"><img id=svg src="icon.svg"><img id=xml src="data.xml">' +
        '<video id=v src="clip.mp4"></video>',
      [
        {
          type: 'text/html',
          location: 'https://example.com/articles/fake.png',
          body: '<script>x</script>',
        },
        {
          type: 'image/svg+xml',
          location: 'https://example.com/articles/icon.svg',
          body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        },
        {
          type: 'application/octet-stream',
          location: 'https://example.com/articles/data.xml',
          body: '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>',
        },
        { type: 'video/mp4', location: 'https://example.com/articles/clip.mp4', body: 'mp4' },
      ],
    );
    expect(blobs.map((blob) => blob.type).sort()).toEqual([
      'application/octet-stream',
      'video/mp4',
    ]);
    // SVG is shown from a data: URL (an opaque origin if someone opens it), never a blob:.
    expect(doc.getElementById('svg')?.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(doc.getElementById('xml')?.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('tells http and https apart only when it has to', () => {
    const { doc } = renderMhtml('<img id=a src="http://example.com/articles/a.png">', [
      png('https://example.com/articles/a.png'),
    ]);
    expect(doc.getElementById('a')?.getAttribute('src')).toMatch(/^blob:test\/\d+$/);
  });
});

describe('linked MHTML (Folio’s server: large parts as links)', () => {
  const PARTS = 'http://127.0.0.1:8080/parts/';
  const LINK = 'parts/abc/100/200/base64/1800000000/image/png/sig_-0123';
  const linkedPart = (location: string, type = 'image/png', link = LINK): MhtmlPartSpec => ({
    type,
    location,
    body: '',
    headers: [`Folio-Part-Url: ${link}`],
  });
  const page = (html: string, parts: MhtmlPartSpec[]) =>
    makeMhtml([{ type: 'text/html', location: PAGE, body: html }, ...parts], PAGE);

  function renderLinked(file: Uint8Array, partsBase?: string) {
    const response = previewResponse('mhtml', file, reservedNames, undefined, partsBase);
    if (!response.ok) throw new Error(response.message);
    const { html } = materializePreview(response, (resource) =>
      typeof resource === 'string' ? resource : 'blob:test/bytes',
    );
    return { response, doc: parse(html) };
  }

  it('shows a linked image from its link, which the CSP allows and no other address', () => {
    const file = page('<img src="photo.png"><img src="icon.png">', [
      linkedPart('https://example.com/articles/photo.png'),
      { type: 'image/png', location: 'https://example.com/articles/icon.png', body: PNG },
    ]);
    const { response, doc } = renderLinked(file, PARTS);
    const [photo, icon] = Array.from(doc.querySelectorAll('img'));
    expect(photo?.getAttribute('src')).toBe(`http://127.0.0.1:8080/${LINK}`);
    expect(icon?.getAttribute('src')).toBe('blob:test/bytes');
    const csp = doc.querySelector('meta')?.getAttribute('content') ?? '';
    expect(csp).toContain(`img-src data: blob: ${PARTS};`);
    expect(csp).toContain(`font-src data: blob: ${PARTS};`);
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(response.ok && response.partsBase).toBe(PARTS);
  });

  it('means nothing in any other archive: no link, and the CSP as always', () => {
    const file = page('<img src="photo.png">', [
      linkedPart('https://example.com/articles/photo.png'),
    ]);
    const { doc } = renderLinked(file);
    expect(doc.querySelector('img')?.getAttribute('src') ?? '').not.toContain('parts/');
    expect(doc.querySelector('meta')?.getAttribute('content')).toBe(PREVIEW_CSP);
  });

  it('drops a link to anywhere else, and one that a use may not load as its type', () => {
    const file = page('<img src="away.png"><img src="font.woff2"><video src="photo.png"></video>', [
      linkedPart('https://example.com/articles/away.png', 'image/png', '../public/api/v1/webpages'),
      linkedPart('https://example.com/articles/font.woff2', 'font/woff2'),
      linkedPart('https://example.com/articles/photo.png'),
    ]);
    const { doc } = renderLinked(file, PARTS);
    const sources = Array.from(doc.querySelectorAll('img, video'), (element) =>
      element.getAttribute('src'),
    );
    expect(sources.join(' ')).not.toContain('/parts/');
    expect(sources.join(' ')).not.toContain('/public/api/');
  });
});

describe('webarchives', () => {
  it('uses subresources by URL and subframe archives as nested documents', () => {
    const { doc, blobs } = render(
      'webarchive',
      makeWebarchive({
        url: 'https://example.com/',
        html:
          '<link rel=stylesheet href="fake.css"><link rel=stylesheet href="s.css">' +
          '<img id=a src="a.png"><iframe id=f src="https://frame.example/"></iframe>',
        subresources: [
          { url: 'https://example.com/a.png', mimeType: 'image/png', data: PNG },
          { url: 'https://example.com/fake.css', mimeType: 'text/html', data: '<p>html</p>' },
          { url: 'https://example.com/s.css', mimeType: 'text/css', data: 'p{color:red}' },
        ],
        subframes: [
          {
            url: 'https://frame.example/',
            html: '<p>framed</p><img src="b.png">',
            subresources: [
              { url: 'https://frame.example/b.png', mimeType: 'image/png', data: PNG },
            ],
          },
        ],
      }),
    );
    expect(doc.getElementById('a')?.getAttribute('src')).toMatch(/^blob:test\/\d+$/);
    // A resource that claims text/html never becomes a stylesheet.
    expect(Array.from(doc.querySelectorAll(PAGE_STYLES), (style) => style.textContent)).toEqual([
      'p{color:red}',
    ]);
    const inner = frameDocument(doc.getElementById('f'));
    expectPreamble(inner);
    expect(inner.body.textContent).toBe('framed');
    expect(inner.querySelector('img')?.getAttribute('src')).toMatch(/^blob:test\/\d+$/);
    expect(blobs.map((blob) => blob.type)).toEqual(['image/png', 'image/png']);
  });
});

describe('failures', () => {
  it('reports a broken archive as a message', () => {
    expect(previewResponse('mhtml', utf8('not mime'), reservedNames)).toEqual({
      ok: false,
      failure: 'unreadable',
      message: expect.stringMatching(/^mhtml: /),
    });
  });
});

describe('the original file as the server sent it', () => {
  const page = utf8('<!DOCTYPE html><p>The saved page</p>');
  const envelope = async (body: unknown): Promise<OriginalFile> => ({
    encoding: 'base64-json',
    blob: await Response.json(body).blob(),
  });

  it("reads the bytes Folio's server sends and HamsterBase's base64 envelope alike", async () => {
    const bytes = await handlePreviewRequest({
      ext: 'html',
      file: await originalFile(page),
      reservedNames,
    });
    const json = await handlePreviewRequest({
      ext: 'html',
      file: await envelope({ success: true, data: encodeBase64(page) }),
      reservedNames,
    });
    expect(text(bytes)).toContain('<p>The saved page</p>');
    expect(text(json)).toBe(text(bytes));
  });

  it('says why an envelope cannot be read: bad base64, a refusal, no envelope', async () => {
    const cases: [unknown, RegExp][] = [
      [{ success: true, data: '!!!' }, /base64/],
      [{ success: false, error: 'E0001', message: 'webpage gone' }, /^webpage gone$/],
      [{ items: [] }, /envelope/],
      [{ success: true, data: 42 }, /no base64 text/],
    ];
    for (const [body, message] of cases) {
      const response = await handlePreviewRequest({
        ext: 'html',
        file: await envelope(body),
        reservedNames,
      });
      expect(response).toEqual({
        ok: false,
        failure: 'unreadable',
        message: expect.stringMatching(message),
      });
    }
  });

  it('answers "too complex" for a file past the bound without reading it', async () => {
    const file: OriginalFile = {
      encoding: 'bytes',
      // Only its size is looked at: a Blob that cannot be read proves it is not.
      blob: { size: MAX_PREVIEW_INPUT_BYTES + 1 } as Blob,
    };
    expect(await handlePreviewRequest({ ext: 'html', file, reservedNames })).toEqual({
      ok: false,
      failure: 'too-complex',
      message: `the file is larger than ${MAX_PREVIEW_INPUT_BYTES} bytes`,
    });
  });
});
